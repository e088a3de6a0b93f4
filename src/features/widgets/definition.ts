import { type IconName } from '@blueprintjs/core';
import { type ComponentType } from 'react';
import { type DatasetSchema } from '../../contracts/datasets';
import { type Widget } from '../../contracts/reports';
import { type QueryKind } from '../../engine/queries';
import { type DrawerType } from '../shell/drawers';
import { type WidgetConfigAction } from '../widget-config/widgetEdits';
import { type DataScope, type WidgetProps } from './types';

export interface Size {
  w: number;
  h: number;
}

/** A widget's size on the grid: what a new one gets, and the bounds a resize keeps to (spec 2 §9 Layout). */
export interface WidgetSize {
  default: Size;
  min: Size;
  /** Left out, a bound is the grid's own (24 columns). */
  max: Partial<Size>;
}

/** The grid's bounds for every widget kind of this version (spec 2 §9): 3×3 at least, 105 rows at most. */
export const MIN_SIZE_FALLBACK = 3;
export const MAX_HEIGHT_FALLBACK = 105;

/** A default size with the grid's common bounds. */
export const sized = (w: number, h: number): WidgetSize => ({
  default: { w, h },
  min: { w: MIN_SIZE_FALLBACK, h: MIN_SIZE_FALLBACK },
  max: { h: MAX_HEIGHT_FALLBACK },
});

/** One way a widget kind can be drawn (tabs, cards, a funnel's direction …), with the size it starts at. */
export interface DisplayChoice<T extends string = string> {
  value: T;
  label: string;
  size: WidgetSize;
}

/** What a settings panel gets: the widget as shown (already cleaned) and the edits it may make. */
export interface SettingsPanelProps {
  widget: Widget;
  /** The widget's dataset schema; a panel of a kind that reads a dataset is shown only once it is known. */
  schema: DatasetSchema;
  /** The dataset version in the engine, for value lookups. */
  version: string | undefined;
  scope: DataScope;
  onEdit(action: WidgetConfigAction): void;
}

type Sizing =
  | { size: WidgetSize; displays?: undefined }
  | {
      /** The display choices, the first being a new widget's; each has its own default size. */
      displays: readonly [DisplayChoice, ...DisplayChoice[]];
      /** The widget's current display, when it is not `visualizationSettings.display.type`. */
      displayOf?(widget: Pick<Widget, 'visualizationSettings'>): string | undefined;
    };

type DatasetUse =
  | {
      /**
       * How the configure drawer offers the dataset: 'choice' lets the user pick one and filter it, 'fixed'
       * reads the one the kind implies (date field and palette only).
       */
      dataset: 'choice' | 'fixed';
      Settings?: ComponentType<SettingsPanelProps>;
    }
  | {
      /** The kind reads no dataset in the configure drawer: no dataset, date field, filters or palette. */
      dataset: 'none';
      Settings?: ComponentType<Omit<SettingsPanelProps, 'schema' | 'version'>>;
    };

/**
 * Everything the report screens know of one widget kind, in the kind's own folder (in the manner of a
 * dashboard panel plugin): the canvas draws `View`, the palette offers it by `inPalette`, a new one starts
 * from `defaults` at its display's size, and the configure drawer shows the shared fields plus `Settings`.
 */
export type WidgetDefinition = Sizing &
  DatasetUse & {
    label: string;
    icon: IconName;
    /** Whether the editing drawer's palette offers the kind, by the workspace's feature flags (spec 2 §2). */
    inPalette(flags: readonly string[]): boolean;
    /** The settings a new widget starts with, before it is configured (spec 2 §9). */
    defaults: Omit<Widget, 'id' | 'type'>;
    /** The engine queries the view runs, so a reader sees what a kind costs without opening it. */
    queries: readonly QueryKind[];
    /**
     * Rules of the kind's own on top of the common cleanup against the dataset (spec 2 §4): the widget as
     * it may be saved; the same object when nothing changes.
     */
    cleanup?(widget: Widget, schema: DatasetSchema): Widget;
    /** The card's menu offers 'Open in kpi drawer', a closer look at each metric. */
    opensInKpiDrawer?: boolean;
    /** The drawer a newly dropped widget opens (spec 2 §2). @default 'configure-dashboard-widget' */
    drawerOnAdd?: Extract<DrawerType, 'configure-dashboard-widget' | 'target'>;
    View: ComponentType<WidgetProps>;
  };

/** Offered in every workspace. */
export const always = () => true;
/** Not among the kinds spec 2 §2 lets the palette offer, or not offered yet. */
export const never = () => false;
