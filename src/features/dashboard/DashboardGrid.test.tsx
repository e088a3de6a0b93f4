import { act, render, screen } from '@testing-library/react';
import { type Widget } from '../../contracts/reports';
import { useWidgetPriority } from '../widgets/queryPriority';
import { DashboardGrid } from './DashboardGrid';
import { gridItemBox, RESIZE_THROTTLE_MS } from './layout';

const widgets = [
  { id: 'sales', type: 'table', layout: { x: 0, y: 0, w: 12, h: 20 } },
  { id: 'costs', type: 'table', layout: { x: 12, y: 0, w: 12, h: 20 } },
] as Widget[];

/** jsdom lays nothing out: the grid's container reports `containerWidth`, as a page of that width would. */
let containerWidth = 1000;
let reportResize: (width: number) => void = () => undefined;
const clientWidth = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');

beforeEach(() => {
  containerWidth = 1000;
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('or-dashboard-grid') ? containerWidth : 0;
    },
  });
  globalThis.ResizeObserver = class {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element) {
      reportResize = (width) =>
        this.callback([{ target, contentRect: { width } } as ResizeObserverEntry], this as unknown as ResizeObserver);
    }
    unobserve() {}
    disconnect() {
      reportResize = () => undefined;
    }
  } as unknown as typeof ResizeObserver;
});

afterEach(() => {
  if (clientWidth) Object.defineProperty(HTMLElement.prototype, 'clientWidth', clientWidth);
  delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
  jest.useRealTimers();
});

function renderGrid() {
  return render(
    <DashboardGrid
      widgets={widgets}
      editable={false}
      renderWidget={(widget) => <section aria-label={widget.id} />}
      dropSpot={null}
      onLayoutStop={() => undefined}
    />,
  );
}

/** The pixel width react-grid-layout gave a widget's grid item. */
const itemWidth = (id: string) => (screen.getByRole('region', { name: id }).parentElement as HTMLElement).style.width;
const expectedWidth = (gridWidth: number) => `${gridItemBox({ x: 0, y: 0, w: 12, h: 20 }, gridWidth).width}px`;

describe('DashboardGrid', () => {
  it("draws the widgets once, at their container's width", () => {
    const styleChanges: string[] = [];
    const watcher = new MutationObserver(() => undefined);
    watcher.observe(document.body, { subtree: true, attributeFilter: ['style'], attributeOldValue: true });
    renderGrid();
    for (const record of watcher.takeRecords()) {
      const target = record.target as HTMLElement;
      if (target.classList.contains('react-grid-item') && record.oldValue) styleChanges.push(record.oldValue);
    }
    watcher.disconnect();
    expect(itemWidth('sales')).toBe(expectedWidth(1000));
    expect(itemWidth('costs')).toBe(expectedWidth(1000));
    // No widget was first placed for another width and then moved: the page is laid out once, with the widgets.
    expect(styleChanges).toEqual([]);
  });

  it("follows its container's width once the resizing pauses", () => {
    jest.useFakeTimers();
    renderGrid();
    act(() => reportResize(600));
    act(() => void jest.advanceTimersByTime(RESIZE_THROTTLE_MS - 1));
    expect(itemWidth('sales')).toBe(expectedWidth(1000));
    act(() => reportResize(700));
    act(() => void jest.advanceTimersByTime(RESIZE_THROTTLE_MS - 1));
    expect(itemWidth('sales')).toBe(expectedWidth(1000));
    act(() => void jest.advanceTimersByTime(1));
    expect(itemWidth('sales')).toBe(expectedWidth(700));
  });

  it('lets the widgets in view query first: those below the fold ask after them, until they scroll into view', () => {
    // jsdom: the grid's top is the window's, 768 px high. The second widget's top is 16 + 40 × (8 + 16) = 976 px.
    const stacked = [
      { id: 'top', type: 'table', layout: { x: 0, y: 0, w: 24, h: 20 } },
      { id: 'below', type: 'table', layout: { x: 0, y: 40, w: 24, h: 20 } },
    ] as Widget[];
    const scrolled = new Map<string, (inView: boolean) => void>();
    globalThis.IntersectionObserver = class {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe(target: Element) {
        scrolled.set(target.getAttribute('data-grid-widget') ?? '', (isIntersecting) =>
          this.callback(
            [{ target, isIntersecting } as IntersectionObserverEntry],
            this as unknown as IntersectionObserver,
          ),
        );
      }
      unobserve() {}
      disconnect() {}
    } as unknown as typeof IntersectionObserver;
    // What a widget's queries would ask with, as it draws.
    function Probe({ id }: { id: string }) {
      return <section aria-label={id} data-priority={useWidgetPriority()} />;
    }
    const grid = () => (
      <DashboardGrid
        widgets={stacked}
        editable={false}
        renderWidget={(widget) => <Probe id={widget.id} />}
        dropSpot={null}
        onLayoutStop={() => undefined}
      />
    );
    const priorityOf = (id: string) => screen.getByRole('region', { name: id }).dataset.priority;
    try {
      const { rerender } = render(grid());
      expect(priorityOf('top')).toBe('visible');
      expect(priorityOf('below')).toBe('offscreen');
      // Scrolled down: the next queries (a date change draws the widgets again) put the one now in view first.
      act(() => {
        scrolled.get('below')?.(true);
        scrolled.get('top')?.(false);
      });
      rerender(grid());
      expect(priorityOf('below')).toBe('visible');
      expect(priorityOf('top')).toBe('offscreen');
    } finally {
      delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
    }
  });
});
