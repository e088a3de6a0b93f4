import { type Location, type Range, Editor, Element, Transforms, createEditor } from 'slate';
import { withHistory } from 'slate-history';
import { withReact } from 'slate-react';
import {
  type Alignment,
  type BlockType,
  type ImageElement,
  type LinkElement,
  type Mark,
  type TextBlockElement,
  type VideoElement,
  DEFAULT_ALIGNMENT,
  imageWidth,
  isHttpsUrl,
  trailingHttpsUrl,
} from './richText';

const isLink = (node: unknown): node is LinkElement => Element.isElement(node) && node.type === 'link';
const isTextBlock = (node: unknown): node is TextBlockElement =>
  Element.isElement(node) && (node.type === 'paragraph' || node.type === 'heading' || node.type === 'subtitle');

/** The https URL just typed before a collapsed cursor, outside any link. */
function typedUrlRange(editor: Editor): { range: Range; url: string } | null {
  const { selection } = editor;
  if (!selection || selection.anchor.offset === 0) return null;
  if (selection.anchor.offset !== selection.focus.offset || Editor.above(editor, { match: isLink })) return null;
  const { path, offset } = selection.anchor;
  const before = Editor.string(editor, { anchor: { path, offset: 0 }, focus: { path, offset } });
  const url = trailingHttpsUrl(before);
  if (!url) return null;
  const start = offset - (/(\S+)$/.exec(before)?.[1].length ?? 0);
  return { range: { anchor: { path, offset: start }, focus: { path, offset: start + url.length } }, url };
}

/** Runs `insert` (a space or a new line), then links the URL typed before it, so the cursor stays outside the link. */
function insertThenLink(editor: Editor, insert: () => void) {
  const typed = typedUrlRange(editor);
  const range = typed && Editor.rangeRef(editor, typed.range, { affinity: 'inward' });
  insert();
  const at = range?.unref();
  if (typed && at) Transforms.wrapNodes(editor, { type: 'link', url: typed.url, children: [] }, { at, split: true });
}

/**
 * Links, images and videos for a slate editor. An https URL becomes a link when it is followed by a
 * space or a new line, or pasted on its own; other URLs stay text.
 */
export function createRichTextEditor(): Editor {
  const editor = withHistory(withReact(createEditor()));
  const { isInline, isVoid, insertText, insertBreak, insertData } = editor;
  editor.isInline = (element) => element.type === 'link' || isInline(element);
  editor.isVoid = (element) => element.type === 'image' || element.type === 'video' || isVoid(element);
  editor.insertText = (text) => {
    if (/\s/.test(text)) insertThenLink(editor, () => insertText(text));
    else insertText(text);
  };
  editor.insertBreak = () => insertThenLink(editor, insertBreak);
  editor.insertData = (data) => {
    const text = data.getData('text/plain').trim();
    if (isHttpsUrl(text) && !Editor.above(editor, { match: isLink })) {
      Transforms.insertNodes(editor, { type: 'link', url: text, children: [{ text }] });
      return;
    }
    insertData(data);
  };
  return editor;
}

/** Where toolbar changes apply: the selection, or the first block before the editor was ever focused. */
const target = (editor: Editor): Location => editor.selection ?? [0];

function currentTextBlock(editor: Editor): TextBlockElement | undefined {
  const [entry] = Editor.nodes(editor, { at: target(editor), match: isTextBlock });
  return entry?.[0] as TextBlockElement | undefined;
}

export function currentBlockType(editor: Editor): BlockType {
  return currentTextBlock(editor)?.type ?? 'paragraph';
}
export function currentAlignment(editor: Editor): Alignment {
  return currentTextBlock(editor)?.align ?? DEFAULT_ALIGNMENT;
}

export function setBlockType(editor: Editor, type: BlockType) {
  Transforms.setNodes(editor, { type }, { at: target(editor), match: isTextBlock });
}
export function setAlignment(editor: Editor, align: Alignment) {
  Transforms.setNodes(editor, { align }, { at: target(editor), match: isTextBlock });
}

export function toggleMark(editor: Editor, mark: Mark) {
  if (Editor.marks(editor)?.[mark]) Editor.removeMark(editor, mark);
  else Editor.addMark(editor, mark, true);
}

/** Inserts an image or video block at the cursor (or at the end), with a paragraph after it to type on. */
function insertBlock(editor: Editor, block: ImageElement | VideoElement) {
  const at = editor.selection ? undefined : [editor.children.length];
  Transforms.insertNodes(editor, block, { at });
  const last = editor.children[editor.children.length - 1];
  if (!isTextBlock(last)) {
    Transforms.insertNodes(
      editor,
      { type: 'paragraph', align: DEFAULT_ALIGNMENT, children: [{ text: '' }] },
      { at: [editor.children.length] },
    );
  }
}

export function insertImage(editor: Editor, url: string, width: number) {
  insertBlock(editor, { type: 'image', url, width: imageWidth(width), children: [{ text: '' }] });
}
/** `player` is the embeddable URL of `videoEmbedUrl`. */
export function insertVideo(editor: Editor, player: string) {
  insertBlock(editor, { type: 'video', url: player, children: [{ text: '' }] });
}
