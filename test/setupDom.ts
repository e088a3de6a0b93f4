import { TextDecoder as NodeTextDecoder, TextEncoder as NodeTextEncoder } from 'node:util';
import { configure } from '@testing-library/react';

// jsdom has no matchMedia; components that follow the system colour scheme need one.
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom has no TextEncoder/TextDecoder; react-router needs them at import time.
if (typeof globalThis.TextEncoder === 'undefined') {
  Object.assign(globalThis, { TextEncoder: NodeTextEncoder, TextDecoder: NodeTextDecoder });
}

// findBy*/waitFor give up after 1 s by default: on a loaded CI machine a render that waits on a fetch and a
// few state updates can take longer. A test waits for state, never for time, so a long ceiling costs nothing
// when the state comes (suites that run the engine set their own, longer one).
configure({ asyncUtilTimeout: 10_000 });
