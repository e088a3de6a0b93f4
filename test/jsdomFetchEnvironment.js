/**
 * jsdom with Node's fetch API: component tests that stub the network (test/stubNetwork.ts) render in jsdom,
 * which has no fetch, Request or Response of its own; and with WebCrypto's digest (the kept answers' keys), which
 * jsdom's crypto lacks. Use with the docblock
 * `@jest-environment ./test/jsdomFetchEnvironment.js`.
 */
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomFetchEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of ['fetch', 'Request', 'Response', 'Headers']) this.global[name] = globalThis[name];
    if (!this.global.crypto.subtle) {
      Object.defineProperty(this.global.crypto, 'subtle', { value: globalThis.crypto.subtle });
    }
  }
}

module.exports = JsdomFetchEnvironment;
