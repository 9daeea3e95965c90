// @ts-check
// idb-keyval: a small promise API over IndexedDB (one object store of keys and values). Its ES
// build has no imports; the gateway serves node_modules/idb-keyval at /vendor/idb-keyval/.
// Types come from the installed package.
// @ts-expect-error -- resolved by the browser, not by tsc; typed export by export below
import * as K from "/vendor/idb-keyval/dist/index.js";

/** @type {typeof import('idb-keyval').createStore} */
export const createStore = K.createStore;
/** @type {typeof import('idb-keyval').set} */
export const set = K.set;
/** @type {typeof import('idb-keyval').del} */
export const del = K.del;
/** @type {typeof import('idb-keyval').values} */
export const values = K.values;
/** @type {typeof import('idb-keyval').clear} */
export const clear = K.clear;
