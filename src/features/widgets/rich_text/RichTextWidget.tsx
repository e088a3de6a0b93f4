import './richText.css';
import {
  Button,
  ButtonGroup,
  FormGroup,
  HTMLSelect,
  type IconName,
  InputGroup,
  NumericInput,
  PopoverNext,
} from '@blueprintjs/core';
import { type KeyboardEvent, type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { type Descendant } from 'slate';
import { type RenderElementProps, type RenderLeafProps, Editable, Slate, useSlate, useSlateStatic } from 'slate-react';
import { FieldGroup } from '../../shell/components/FieldGroup';
import { type WidgetProps } from '../types';
import {
  type Alignment,
  type Mark,
  CONTENT_SAVE_DEBOUNCE_MS,
  MIN_IMAGE_WIDTH,
  alignments,
  blockTypeLabels,
  blockTypes,
  debounce,
  imageHeight,
  isHttpsUrl,
  parseRichText,
  serializeRichText,
  videoEmbedUrl,
} from './richText';
import {
  createRichTextEditor,
  currentAlignment,
  currentBlockType,
  insertImage,
  insertVideo,
  setAlignment,
  setBlockType,
  toggleMark,
} from './richTextEditor';

export const INVALID_IMAGE_URL = 'Enter an https image URL.';
export const INVALID_VIDEO_URL = 'Enter a YouTube or Vimeo video URL.';

/**
 * Rich text on a dashboard (spec 2 §3): editable in edit mode with write access, read-only otherwise.
 * The content is saved as HTML 200 ms after the last change.
 */
export function RichTextWidget({ widget, context, onChange }: WidgetProps) {
  const editable = context.editMode && context.canEdit;
  const content = widget.content ?? '';
  // The editor keeps its own document; it starts over only when the content changes from outside
  // (undo, a newer version of the report), not when its own save comes back. What it sent is kept
  // outside React state: the store's update can render before a state update made with the save.
  const [sent] = useState(() => ({ content }));
  const [seen, setSeen] = useState(content);
  const [generation, setGeneration] = useState(0);
  if (content !== seen) {
    setSeen(content);
    if (content !== sent.content) setGeneration(generation + 1);
  }
  // After an outside change the editor holds that content; a later redo to what it sent is outside too.
  useEffect(() => {
    sent.content = content;
  }, [sent, content]);

  const latest = useRef({ widget, onChange });
  useEffect(() => {
    latest.current = { widget, onChange };
  });
  const [save] = useState(() =>
    debounce((html: string) => {
      const { widget: current, onChange: change } = latest.current;
      if (!change || html === (current.content ?? '')) return;
      sent.content = html;
      change({ ...current, content: html });
    }, CONTENT_SAVE_DEBOUNCE_MS),
  );
  // Leaving edit mode or the dashboard must not lose the last keystrokes.
  useEffect(() => () => save.flush(), [save]);

  return (
    // Focus leaving the widget (a click on Save, on the date picker) saves at once: the report's Save must never
    // miss the last keystrokes still waiting for the debounce.
    <div
      className="or-rich-text-widget"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) save.flush();
      }}
    >
      <RichTextEditor
        key={generation}
        content={content}
        editable={editable}
        onValue={(value) => save(serializeRichText(value))}
      />
    </div>
  );
}

interface RichTextEditorProps {
  content: string;
  editable: boolean;
  onValue(value: Descendant[]): void;
}

function RichTextEditor({ content, editable, onValue }: RichTextEditorProps) {
  const [editor] = useState(createRichTextEditor);
  const [initialValue] = useState(() => parseRichText(content));
  const onKeyDown = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey)) return;
    const mark: Mark | undefined = ({ b: 'bold', i: 'italic', u: 'underline' } as const)[event.key.toLowerCase()];
    if (!mark) return;
    event.preventDefault();
    toggleMark(editor, mark);
  };
  return (
    <div className="or-rich-text">
      <Slate editor={editor} initialValue={initialValue} onValueChange={onValue}>
        {editable && <Toolbar />}
        <Editable
          className="or-rich-text-content"
          readOnly={!editable}
          placeholder={editable ? 'Type here…' : undefined}
          renderElement={renderElement}
          renderLeaf={renderLeaf}
          onKeyDown={onKeyDown}
          aria-label="Rich text"
        />
      </Slate>
    </div>
  );
}

function renderElement({ element, attributes, children }: RenderElementProps) {
  switch (element.type) {
    case 'link':
      return (
        <a {...attributes} href={element.url} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    case 'image':
      return (
        <div {...attributes} className="or-rich-text-media">
          <div contentEditable={false}>
            <img src={element.url} width={element.width} height={imageHeight(element.width)} alt="" />
          </div>
          {children}
        </div>
      );
    case 'video':
      return (
        <div {...attributes} className="or-rich-text-media">
          <div contentEditable={false} className="or-rich-text-video">
            <iframe src={element.url} title="Embedded video" allowFullScreen />
          </div>
          {children}
        </div>
      );
    case 'heading':
      return (
        <h2 {...attributes} style={{ textAlign: element.align }}>
          {children}
        </h2>
      );
    case 'subtitle':
      return (
        <h6 {...attributes} style={{ textAlign: element.align }}>
          {children}
        </h6>
      );
    default:
      return (
        <p {...attributes} style={{ textAlign: element.align }}>
          {children}
        </p>
      );
  }
}

function renderLeaf({ leaf, attributes, children }: RenderLeafProps) {
  let content = children;
  if (leaf.bold) content = <strong>{content}</strong>;
  if (leaf.italic) content = <em>{content}</em>;
  if (leaf.underline) content = <u>{content}</u>;
  return <span {...attributes}>{content}</span>;
}

const alignmentIcons: Record<Alignment, IconName> = {
  left: 'align-left',
  center: 'align-center',
  right: 'align-right',
};

// Toolbar buttons keep the editor's selection: a mouse down on them must not take the focus.
const keepSelection = (event: MouseEvent) => event.preventDefault();

function Toolbar() {
  const editor = useSlate();
  const blockType = currentBlockType(editor);
  const align = currentAlignment(editor);
  return (
    <div className="or-rich-text-toolbar" role="toolbar" aria-label="Text formatting">
      <HTMLSelect
        aria-label="Block type"
        value={blockType}
        options={blockTypes.map((type) => ({ value: type, label: blockTypeLabels[type] }))}
        onChange={(event) => setBlockType(editor, event.currentTarget.value as (typeof blockTypes)[number])}
      />
      <ButtonGroup>
        {alignments.map((alignment) => (
          <Button
            key={alignment}
            icon={alignmentIcons[alignment]}
            aria-label={`Align ${alignment}`}
            active={align === alignment}
            onMouseDown={keepSelection}
            onClick={() => setAlignment(editor, alignment)}
          />
        ))}
      </ButtonGroup>
      <InsertImage />
      <InsertVideo />
    </div>
  );
}

interface InsertUrlProps {
  /** What is inserted: 'Image' or 'Video' (the button's name, the field's 'Image URL', the submit's 'Insert image'). */
  kind: 'Image' | 'Video';
  icon: IconName;
  /** Inserts the URL, or answers the message to show under the field when it is refused. */
  onInsert(url: string): string | undefined;
  /** More fields between the URL and the submit button. */
  children?: ReactNode;
}

/** A toolbar button opening a small form that takes a URL and inserts what it points to. */
function InsertUrl({ kind, icon, onInsert, children }: InsertUrlProps) {
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string>();
  const fieldId = `rich-text-${kind.toLowerCase()}-url`;
  const insert = () => {
    const refused = onInsert(url.trim());
    setError(refused);
    if (refused) return;
    setOpen(false);
    setUrl('');
  };
  return (
    <PopoverNext
      shouldReturnFocusOnClose={false}
      isOpen={open}
      onInteraction={setOpen}
      content={
        <form
          className="or-rich-text-insert"
          onSubmit={(event) => {
            event.preventDefault();
            insert();
          }}
        >
          <FieldGroup label={`${kind} URL`} labelFor={fieldId} error={error}>
            <InputGroup id={fieldId} autoFocus value={url} onValueChange={setUrl} placeholder="https://" />
          </FieldGroup>
          {children}
          <Button type="submit" intent="primary" text={`Insert ${kind.toLowerCase()}`} />
        </form>
      }
    >
      <Button icon={icon} aria-label={kind} onMouseDown={keepSelection} />
    </PopoverNext>
  );
}

function InsertImage() {
  const editor = useSlateStatic();
  const [width, setWidth] = useState(MIN_IMAGE_WIDTH);
  const insert = (url: string) => {
    if (!isHttpsUrl(url)) return INVALID_IMAGE_URL;
    insertImage(editor, url, width);
    return undefined;
  };
  return (
    <InsertUrl kind="Image" icon="media" onInsert={insert}>
      <FormGroup label="Width (px)" labelFor="rich-text-image-width">
        <NumericInput
          id="rich-text-image-width"
          min={MIN_IMAGE_WIDTH}
          value={width}
          onValueChange={(value) => setWidth(Number.isFinite(value) ? value : MIN_IMAGE_WIDTH)}
        />
      </FormGroup>
    </InsertUrl>
  );
}

function InsertVideo() {
  const editor = useSlateStatic();
  const insert = (url: string) => {
    const player = videoEmbedUrl(url);
    if (!player) return INVALID_VIDEO_URL;
    insertVideo(editor, player);
    return undefined;
  };
  return <InsertUrl kind="Video" icon="video" onInsert={insert} />;
}
