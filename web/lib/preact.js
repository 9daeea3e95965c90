// @ts-check
// The one door to Preact + htm. Strict CSP (script-src 'self') blocks an inline import map, and
// preact/hooks and htm/preact import the bare specifier "preact", which a browser cannot resolve
// without one. htm ships a self-contained build (Preact + hooks + htm, no imports) in
// node_modules/htm/preact/standalone.module.js; the gateway serves node_modules/htm at
// /vendor/htm/. Types come from the installed preact/htm packages.
// @ts-expect-error -- resolved by the browser, not by tsc; typed export by export below
import * as P from "/vendor/htm/preact/standalone.module.js";

/** @type {typeof import('htm/preact').html} */
export const html = P.html;
/** @type {typeof import('preact').render} */
export const render = P.render;
/** @type {typeof import('preact/hooks').useState} */
export const useState = P.useState;
/** @type {typeof import('preact/hooks').useEffect} */
export const useEffect = P.useEffect;
/** @type {typeof import('preact/hooks').useLayoutEffect} */
export const useLayoutEffect = P.useLayoutEffect;
/** @type {typeof import('preact/hooks').useRef} */
export const useRef = P.useRef;
/** @type {typeof import('preact/hooks').useMemo} */
export const useMemo = P.useMemo;
/** @type {typeof import('preact').Component} */
export const Component = P.Component;
