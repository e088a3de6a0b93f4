import { lazy } from 'react';
import { never, sized, type WidgetDefinition } from '../definition';
import { RichTextSettings } from './RichTextSettings';

/**
 * The editor (Slate, about 225 KiB minified) in a chunk of its own, asked for when a dashboard shows a text widget:
 * a dashboard without one opens without it.
 */
const RichTextWidget = lazy(() =>
  import(/* webpackChunkName: "rich-text" */ './RichTextWidget').then((module) => ({ default: module.RichTextWidget })),
);

export const richTextWidget: WidgetDefinition = {
  label: 'Text',
  icon: 'new-text-box',
  inPalette: never,
  defaults: { content: '' },
  size: sized(24, 4),
  dataset: 'none',
  Settings: RichTextSettings,
  queries: [],
  View: RichTextWidget,
};
