import { never, sized, type WidgetDefinition } from '../definition';
import { RichTextSettings } from './RichTextSettings';
import { RichTextWidget } from './RichTextWidget';

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
