/// <reference path="./undiciLib.d.ts" />
/**
 * The parts of undici the product uses, bundled once as `dist/undici.js` (see esbuild.mjs): the
 * network bundle and the emulator bundle load them from here. Not `export * from 'undici'`: its
 * index also loads fetch, WebSocket, EventSource, the caches and the mocks (undici is CommonJS, so
 * a bundler cannot leave them out), which none of our code calls. They were half of this bundle's
 * bytes and of the heap it builds when it loads. test/unit/undiciBundle.test.ts checks that every
 * undici value src/ imports is exported here.
 */
import type * as Undici from 'undici';
import api from 'undici/lib/api';
import Agent from 'undici/lib/dispatcher/agent';
import Dispatcher from 'undici/lib/dispatcher/dispatcher';
import errors from 'undici/lib/core/errors';
import { getGlobalDispatcher } from 'undici/lib/global';

// What undici's index does: every dispatcher gets `request`, `stream` and the rest.
Object.assign(Dispatcher.prototype, api);

/** `request(url, options)` as undici's: the options' dispatcher (or the global one) asked for the URL's origin and path. */
function request(url: string | URL, options: Parameters<typeof Undici.request>[1] = {}) {
  const target = new URL(url);
  const { dispatcher = getGlobalDispatcher(), ...rest } = options ?? {};
  return dispatcher.request({
    ...rest,
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: rest.method ?? (rest.body ? 'PUT' : 'GET'),
  });
}

const typedRequest = request as typeof Undici.request;
export { Agent, Dispatcher, errors, typedRequest as request };
