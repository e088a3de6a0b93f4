import { type BaseEditor, type Descendant } from 'slate';
import { type HistoryEditor } from 'slate-history';
import { type ReactEditor } from 'slate-react';

/** Text alignment of spec 2 §9; the default is center. */
export const alignments = ['left', 'center', 'right'] as const;
export type Alignment = (typeof alignments)[number];
export const DEFAULT_ALIGNMENT: Alignment = 'center';

/** Block types and their labels (spec 2 §9: heading level 2 'Heading', level 6 'Subtitle', paragraph). */
export const blockTypes = ['heading', 'subtitle', 'paragraph'] as const;
export type BlockType = (typeof blockTypes)[number];
export const blockTypeLabels: Record<BlockType, string> = {
  heading: 'Heading',
  subtitle: 'Subtitle',
  paragraph: 'Paragraph',
};
const blockTags: Record<BlockType, string> = { heading: 'h2', subtitle: 'h6', paragraph: 'p' };

export const MIN_IMAGE_WIDTH = 140;
/** An image's height is its width divided by this ratio (spec 2 §9). */
export const IMAGE_HEIGHT_RATIO = 0.7;
export const CONTENT_SAVE_DEBOUNCE_MS = 200;

export interface RichText {
  text: string;
  bold?: true;
  italic?: true;
  underline?: true;
}
export type Mark = 'bold' | 'italic' | 'underline';
export const marks: Mark[] = ['bold', 'italic', 'underline'];

export interface LinkElement {
  type: 'link';
  url: string;
  children: RichText[];
}
export interface TextBlockElement {
  type: BlockType;
  align: Alignment;
  children: (RichText | LinkElement)[];
}
export interface ImageElement {
  type: 'image';
  url: string;
  width: number;
  children: [{ text: '' }];
}
export interface VideoElement {
  type: 'video';
  /** The player URL (YouTube or Vimeo embed). */
  url: string;
  children: [{ text: '' }];
}
export type RichElement = TextBlockElement | LinkElement | ImageElement | VideoElement;
export type RichBlock = TextBlockElement | ImageElement | VideoElement;

declare module 'slate' {
  interface CustomTypes {
    Editor: BaseEditor & ReactEditor & HistoryEditor;
    Element: RichElement;
    Text: RichText;
  }
}

// ---------------------------------------------------------------------------------------------------
// URLs

/** An absolute https URL with a host name: the only kind of link, image or video source kept. */
export function isHttpsUrl(value: string): boolean {
  if (!/^https:\/\/\S+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** The https URL ending `text` (the word just typed), without trailing punctuation; null if none. */
export function trailingHttpsUrl(text: string): string | null {
  const word = /(\S+)$/.exec(text)?.[1];
  if (!word) return null;
  const url = word.replace(/[.,;:!?)\]'"]+$/, '');
  return isHttpsUrl(url) && word.toLowerCase().startsWith('https://') ? url : null;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);

/**
 * The embeddable player URL of a video page: YouTube watch, shorts and embed URLs, youtu.be links and
 * numeric Vimeo videos. Channel, handle and user pages, and anything else, give null.
 */
export function videoEmbedUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split('/').filter(Boolean);
  let youtubeId: string | undefined;
  if (YOUTUBE_HOSTS.has(host)) {
    if (parts.length === 1 && parts[0] === 'watch') youtubeId = url.searchParams.get('v') ?? undefined;
    else if (parts.length === 2 && (parts[0] === 'shorts' || parts[0] === 'embed')) youtubeId = parts[1];
  } else if (host === 'youtu.be' && parts.length === 1) {
    youtubeId = parts[0];
  }
  if (youtubeId !== undefined) return YOUTUBE_ID.test(youtubeId) ? `https://www.youtube.com/embed/${youtubeId}` : null;

  const vimeoId =
    (host === 'vimeo.com' || host === 'www.vimeo.com') && parts.length === 1
      ? parts[0]
      : host === 'player.vimeo.com' && parts.length === 2 && parts[0] === 'video'
        ? parts[1]
        : undefined;
  return vimeoId && /^\d+$/.test(vimeoId) ? `https://player.vimeo.com/video/${vimeoId}` : null;
}

/** An image width as stored: a whole number of pixels, at least the minimum. */
export function imageWidth(width: number): number {
  return Number.isFinite(width) ? Math.max(MIN_IMAGE_WIDTH, Math.round(width)) : MIN_IMAGE_WIDTH;
}
export function imageHeight(width: number): number {
  return Math.round(width / IMAGE_HEIGHT_RATIO);
}

// ---------------------------------------------------------------------------------------------------
// HTML

export const emptyDocument = (): RichBlock[] => [
  { type: 'paragraph', align: DEFAULT_ALIGNMENT, children: [{ text: '' }] },
];

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function textToHtml(leaf: RichText): string {
  let html = escapeHtml(leaf.text);
  if (leaf.underline) html = `<u>${html}</u>`;
  if (leaf.italic) html = `<em>${html}</em>`;
  if (leaf.bold) html = `<strong>${html}</strong>`;
  return html;
}

function nodeToHtml(node: Descendant): string {
  if (!('type' in node)) return textToHtml(node);
  switch (node.type) {
    case 'link':
      return `<a href="${escapeHtml(node.url)}" target="_blank" rel="noopener noreferrer">${node.children.map(nodeToHtml).join('')}</a>`;
    case 'image':
      return `<img src="${escapeHtml(node.url)}" width="${node.width}" height="${imageHeight(node.width)}" alt="">`;
    case 'video':
      return `<iframe src="${escapeHtml(node.url)}" allowfullscreen></iframe>`;
    default: {
      const tag = blockTags[node.type];
      return `<${tag} style="text-align: ${node.align}">${node.children.map(nodeToHtml).join('')}</${tag}>`;
    }
  }
}

/** The document as the HTML stored in widget.content. */
export function serializeRichText(nodes: Descendant[]): string {
  return nodes.map(nodeToHtml).join('');
}

const BLOCK_TAGS: Record<string, BlockType> = {
  p: 'paragraph',
  div: 'paragraph',
  li: 'paragraph',
  blockquote: 'paragraph',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'subtitle',
  h5: 'subtitle',
  h6: 'subtitle',
};
const MARK_TAGS: Record<string, Mark> = { strong: 'bold', b: 'bold', em: 'italic', i: 'italic', u: 'underline' };
/** Elements whose content is never text of the document. */
const DROPPED_TAGS = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'object',
  'embed',
  'svg',
  'math',
  'head',
  'title',
]);

function alignmentOf(element: Element): Alignment {
  const match = /text-align\s*:\s*(left|center|right)/i.exec(element.getAttribute('style') ?? '');
  return match ? (match[1].toLowerCase() as Alignment) : DEFAULT_ALIGNMENT;
}

type Inline = RichText | LinkElement;

/** Text and links of an element, with the marks of the tags around them; everything else is unwrapped. */
function inlinesOf(node: Node, active: Omit<RichText, 'text'>, inLink: boolean): Inline[] {
  if (node.nodeType === Node.TEXT_NODE) {
    const text = node.textContent ?? '';
    return text ? [{ text, ...active }] : [];
  }
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (DROPPED_TAGS.has(tag)) return [];
  if (tag === 'br') return [{ text: '\n', ...active }];
  const children = (marks: Omit<RichText, 'text'>, link: boolean) =>
    [...element.childNodes].flatMap((child) => inlinesOf(child, marks, link));
  const mark = MARK_TAGS[tag];
  if (mark) return children({ ...active, [mark]: true }, inLink);
  const href = element.getAttribute('href');
  if (tag === 'a' && !inLink && href && isHttpsUrl(href)) {
    const text = children(active, true) as RichText[];
    return text.length ? [{ type: 'link', url: href, children: text }] : [];
  }
  return children(active, inLink);
}

/** Slate's canonical form: adjacent equal texts merged, a text (maybe empty) around and between links. */
function normalizeInlines(inlines: Inline[]): Inline[] {
  const result: Inline[] = [];
  for (const inline of inlines) {
    const last = result.at(-1);
    if ('type' in inline) {
      if (!last || 'type' in last) result.push({ text: '' });
      result.push({ ...inline, children: normalizeInlines(inline.children) as RichText[] });
    } else if (last && !('type' in last) && sameMarks(last, inline)) {
      result[result.length - 1] = { ...last, text: last.text + inline.text };
    } else if (inline.text || !last || 'type' in last) {
      result.push(inline);
    }
  }
  if (!result.length || 'type' in result[result.length - 1]) result.push({ text: '' });
  return result;
}
const sameMarks = (a: RichText, b: RichText) => marks.every((mark) => a[mark] === b[mark]);

function trimBlock(inlines: Inline[]): Inline[] {
  return inlines.length === 1 && !('type' in inlines[0]) && !inlines[0].text.trim() ? [{ text: '' }] : inlines;
}

/**
 * The document of stored HTML. Only what this editor writes survives: headings, paragraphs,
 * alignment, bold/italic/underline, https links and images, and YouTube or Vimeo players; scripts,
 * event attributes, styles and other URLs are dropped.
 */
export function parseRichText(html: string | undefined): RichBlock[] {
  if (!html?.trim()) return emptyDocument();
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const blocks: RichBlock[] = [];
  let pending: Inline[] = [];
  const flush = () => {
    const hasText = pending.some((inline) => 'type' in inline || inline.text.trim());
    if (hasText) blocks.push({ type: 'paragraph', align: DEFAULT_ALIGNMENT, children: normalizeInlines(pending) });
    pending = [];
  };
  const walk = (node: Node) => {
    if (node.nodeType !== Node.ELEMENT_NODE) {
      pending.push(...inlinesOf(node, {}, false));
      return;
    }
    const element = node as Element;
    const tag = element.tagName.toLowerCase();
    if (tag === 'img') {
      flush();
      const src = element.getAttribute('src');
      if (src && isHttpsUrl(src))
        blocks.push({
          type: 'image',
          url: src,
          width: imageWidth(Number(element.getAttribute('width'))),
          children: [{ text: '' }],
        });
    } else if (tag === 'iframe') {
      flush();
      const player = videoEmbedUrl(element.getAttribute('src') ?? '');
      if (player) blocks.push({ type: 'video', url: player, children: [{ text: '' }] });
    } else if (
      BLOCK_TAGS[tag] &&
      !element.querySelector('p, div, li, h1, h2, h3, h4, h5, h6, img, iframe, blockquote')
    ) {
      flush();
      blocks.push({
        type: BLOCK_TAGS[tag],
        align: alignmentOf(element),
        children: trimBlock(normalizeInlines(inlinesOf(element, {}, false))),
      });
    } else if (BLOCK_TAGS[tag] || tag === 'ul' || tag === 'ol' || tag === 'section' || tag === 'article') {
      flush();
      element.childNodes.forEach(walk);
      flush();
    } else if (!DROPPED_TAGS.has(tag)) {
      if (element.querySelector('img, iframe, p, div, h1, h2, h3, h4, h5, h6')) element.childNodes.forEach(walk);
      else pending.push(...inlinesOf(element, {}, false));
    }
  };
  body.childNodes.forEach(walk);
  flush();
  return blocks.length ? blocks : emptyDocument();
}

// ---------------------------------------------------------------------------------------------------
// Saving

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Runs a pending call now. */
  flush(): void;
  cancel(): void;
}

/** Calls `fn` with the latest arguments once `ms` have passed without another call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const run = () => {
    timer = undefined;
    const args = pending;
    pending = undefined;
    if (args) fn(...args);
  };
  const debounced = (...args: A) => {
    pending = args;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  debounced.flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    run();
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  return debounced;
}
