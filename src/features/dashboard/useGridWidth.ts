import { type RefObject, useLayoutEffect, useRef, useState } from 'react';

/** The width inside a node's padding, in whole pixels (what react-grid-layout lays its columns out in). */
function contentWidth(node: HTMLElement): number {
  const style = getComputedStyle(node);
  const padding = (Number.parseFloat(style.paddingLeft) || 0) + (Number.parseFloat(style.paddingRight) || 0);
  return Math.max(0, Math.round(node.clientWidth - padding));
}

/**
 * The width of the dashboard grid's container; undefined until measured, and the grid draws nothing until then.
 *
 * It is measured once in a layout effect, while the container is still empty, and the grid's first render uses it
 * (a layout effect's update renders again before the browser paints). After that a ResizeObserver reports changes,
 * `debounceMs` after the last one. react-grid-layout's own `useContainerWidth` drew the widgets first at an assumed
 * 1,280 px and then read the computed width in an effect: the page's layout was forced with every widget in it, in
 * the middle of a dashboard's first render (55 ms of the page's thread in a profile of a cold open at 10^6 rows),
 * and every widget was drawn a second time at the real width.
 */
export function useGridWidth(debounceMs: number): {
  width: number | undefined;
  /** How much of the grid's height the viewport showed when it was measured: what is below is below the fold. */
  fold: number;
  containerRef: RefObject<HTMLDivElement>;
} {
  const containerRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number>();
  const [fold, setFold] = useState(Infinity);
  useLayoutEffect(() => {
    const node = containerRef.current;
    if (!node) return;
    setWidth(contentWidth(node));
    // The same layout as the width's: no other is forced.
    setFold(window.innerHeight - node.getBoundingClientRect().top);
    if (typeof ResizeObserver === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const next = Math.round(entry.contentRect.width);
      clearTimeout(timer);
      timer = setTimeout(() => setWidth(next), debounceMs);
    });
    observer.observe(node);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [debounceMs]);
  return { width, fold, containerRef };
}
