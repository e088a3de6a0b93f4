import { Editor, Transforms } from 'slate';
import { parseRichText, serializeRichText } from './richText';
import { createRichTextEditor, setAlignment, setBlockType } from './richTextEditor';

function editorWith(html: string) {
  const editor = createRichTextEditor();
  editor.children = parseRichText(html);
  Transforms.select(editor, Editor.end(editor, []));
  return editor;
}
const html = (editor: Editor) => serializeRichText(editor.children);

describe('typing links', () => {
  test('an https URL followed by a space becomes a link and typing goes on outside it', () => {
    const editor = editorWith('<p>See https://example.com/q3</p>');
    editor.insertText(' ');
    editor.insertText('now');
    expect(html(editor)).toBe(
      '<p style="text-align: center">See <a href="https://example.com/q3" target="_blank" rel="noopener noreferrer">' +
        'https://example.com/q3</a> now</p>',
    );
  });

  test('trailing punctuation stays outside the link', () => {
    const editor = editorWith('<p>At https://example.com.</p>');
    editor.insertText(' ');
    expect(html(editor)).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">https://example.com</a>. ',
    );
  });

  test('an http URL stays text', () => {
    const editor = editorWith('<p>See http://example.com</p>');
    editor.insertText(' ');
    expect(html(editor)).toBe('<p style="text-align: center">See http://example.com </p>');
  });

  test('a new line after an https URL links it too', () => {
    const editor = editorWith('<p>https://example.com</p>');
    editor.insertBreak();
    expect(html(editor)).toBe(
      '<p style="text-align: center"><a href="https://example.com" target="_blank" rel="noopener noreferrer">' +
        'https://example.com</a></p><p style="text-align: center"></p>',
    );
  });

  test('a pasted https URL is a link, other pasted text is not', () => {
    const paste = (text: string) =>
      ({ getData: (type: string) => (type === 'text/plain' ? text : '') }) as DataTransfer;
    const editor = editorWith('<p>Go </p>');
    editor.insertData(paste('https://example.com/x'));
    expect(html(editor)).toContain(
      '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer">https://example.com/x</a>',
    );
    const plain = editorWith('<p>Go </p>');
    plain.insertData(paste('http://example.com/x'));
    expect(html(plain)).toBe('<p style="text-align: center">Go http://example.com/x</p>');
  });
});

test('block type and alignment apply to the selected blocks', () => {
  const editor = editorWith('<p>One</p><p>Two</p>');
  setBlockType(editor, 'heading');
  setAlignment(editor, 'left');
  expect(html(editor)).toBe('<p style="text-align: center">One</p><h2 style="text-align: left">Two</h2>');
});
