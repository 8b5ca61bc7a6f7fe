// The guest half of the bridge: JavaScript evaluated in the guest's own realm (a QuickJS
// context, a `node:vm` context) before the model's code, so that everything the guest can
// reach was made in its realm: the `codemode` helpers, the promises they return, the
// errors they reject with, the results, `console`. It keeps the realm's own intrinsics
// from before the model's code ran (so a guest that replaces `JSON` or `Promise.prototype
// .then` changes nothing here) and talks to the executor through three functions that
// take and return primitives only:
//
//   call(namespace, name, argsJson) -> call id   a tool call for the host to dispatch
//   log(line)                                    a console line
//   end(kind, a?, b?, c?)                        how the run ended: 'value' (JSON text),
//                                                'none' (no value), 'unserializable'
//                                                (why), 'bridge' (the id of the call whose
//                                                rejection escaped), 'guest' (name,
//                                                message, stack)
//
// It evaluates to `install(call, log, end, namespacesJson, maxArgsUnits)`, which answers
// `{ codemode, console, settle(id, ok, text), watch(promise) }`.

export const GUEST_BRIDGE = `(() => {
  'use strict';
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const getPrototypeOf = Object.getPrototypeOf;
  const create = Object.create;
  const isArray = Array.isArray;
  const isFinite = Number.isFinite;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const ObjectPrototype = Object.prototype;
  const toTag = Object.prototype.toString;
  const P = Promise;
  const then = Promise.prototype.then;
  const E = Error;
  const TE = TypeError;
  const WM = WeakMap;
  const wmGet = WeakMap.prototype.get;
  const wmSet = WeakMap.prototype.set;
  const S = String;
  const charCodeAt = String.prototype.charCodeAt;
  const slice = String.prototype.slice;
  const PX = Proxy;
  const MAX_DEPTH = 1000;
  // Stacks are text only: no callback of the guest's ever sees the engine's frames, which
  // could hand it the executor's functions.
  try {
    defineProperty(E, 'prepareStackTrace', { value: undefined, writable: false, configurable: false });
  } catch {}
  // Node reads the hook from the realm's global \`Error\`, so that binding is locked too (a
  // guest that put an object with its own hook there would see the frames).
  try {
    defineProperty(globalThis, 'Error', { value: E, writable: false, enumerable: false, configurable: false });
  } catch {}

  return (call, log, end, namespacesJson, maxArgsUnits) => {
    const pending = create(null);
    const delivered = new WM();
    let ended = false;
    const finish = (kind, a, b, c) => {
      if (ended) return;
      ended = true;
      end(kind, a, b, c);
    };

    const errorText = (e) => {
      try {
        if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
          const name = e.name;
          const message = e.message;
          if (typeof message === 'string') return (typeof name === 'string' && name !== '' ? name : 'Error') + ': ' + message;
        }
        return S(e);
      } catch {
        return 'an error that cannot be shown';
      }
    };

    const helper = (namespace, name) => function (args) {
      return new P((resolve, reject) => {
        let text = '{}';
        if (args !== undefined) {
          try {
            text = stringify(args);
          } catch (e) {
            reject(e);
            return;
          }
          if (text === undefined) text = 'null';
          if (text.length > maxArgsUnits) {
            reject(new TE('the arguments of ' + namespace + '.' + name + ' are ' + text.length + ' characters of JSON, more than the ' + maxArgsUnits + ' a call may send'));
            return;
          }
        }
        pending[call(namespace, name, text)] = [resolve, reject];
      });
    };

    // A name the catalog lacks is still callable: the host answers the call with the
    // contract's \`unknown_tool\`, naming the nearest tools, where a plain object would give
    // the model a bare "not a function". Not for a symbol, \`then\` (an awaited namespace
    // is no promise) or \`toJSON\`, nor for what the object holds or inherits.
    const callable = (key) => typeof key === 'string' && key !== 'then' && key !== 'toJSON';
    const lenient = (target, missing) => new PX(target, { get: (t, key) => (key in t || !callable(key) ? t[key] : missing(key)) });
    const unknownNamespace = (namespace) => lenient(freeze({}), (name) => helper(namespace, name));

    const codemode = {};
    const namespaces = parse(namespacesJson);
    for (let i = 0; i < namespaces.length; i++) {
      const namespace = namespaces[i][0];
      const names = namespaces[i][1];
      const tools = {};
      for (let j = 0; j < names.length; j++) {
        defineProperty(tools, names[j], { enumerable: true, value: helper(namespace, names[j]) });
      }
      defineProperty(codemode, namespace, { enumerable: true, value: lenient(freeze(tools), (name) => helper(namespace, name)) });
    }

    const shown = (x) => {
      if (typeof x === 'string') return x;
      try {
        const json = stringify(x);
        if (json !== undefined) return json;
      } catch {}
      try {
        return S(x);
      } catch {
        return '[unprintable value]';
      }
    };
    // A lone surrogate becomes U+FFFD in the guest's realm, so that both engines hand the
    // host the same line (QuickJS would pass its three UTF-8 bytes, each read as U+FFFD).
    const wellFormed = (text) => {
      let out = '';
      let from = 0;
      for (let i = 0; i < text.length; i++) {
        const c = apply(charCodeAt, text, [i]);
        if (c < 0xd800 || c > 0xdfff) continue;
        const next = i + 1 < text.length ? apply(charCodeAt, text, [i + 1]) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          i++;
          continue;
        }
        out += apply(slice, text, [from, i]) + '\\ufffd';
        from = i + 1;
      }
      return from === 0 ? text : out + apply(slice, text, [from]);
    };
    const line = function () {
      let out = '';
      for (let i = 0; i < arguments.length; i++) out += (i === 0 ? '' : ' ') + shown(arguments[i]);
      log(wellFormed(out));
    };
    const console = freeze({ log: line, info: line, warn: line, error: line, debug: line });

    // The host's answer to call \`id\`: its result as JSON text, or its contract JSON text
    // as the message of an error made here, remembered by identity.
    const settle = (id, ok, text) => {
      const waiting = pending[id];
      if (waiting === undefined) return;
      delete pending[id];
      if (ok) {
        let value;
        try {
          value = parse(text);
        } catch (e) {
          waiting[1](e);
          return;
        }
        waiting[0](value);
        return;
      }
      const error = new E(text);
      try {
        defineProperty(error, 'stack', { value: 'Error: ' + text, writable: true, configurable: true });
      } catch {}
      apply(wmSet, delivered, [error, id]);
      waiting[1](error);
    };

    // What a value is when it is not JSON data (JSON has no such value, or would lose it).
    const notData = (holder, key, x) => {
      switch (typeof x) {
        case 'number':
          return isFinite(x) ? undefined : S(x);
        case 'function':
          return 'a function';
        case 'symbol':
          return 'a symbol';
        case 'bigint':
          return 'a BigInt';
        case 'undefined':
          return isArray(holder) ? 'undefined in an array' : undefined;
        case 'object': {
          if (x === null || isArray(x)) return undefined;
          const proto = getPrototypeOf(x);
          if (proto === ObjectPrototype || proto === null) return undefined;
          const tag = apply(toTag, x, []);
          if (tag === '[object Object]') return 'an object that is not plain data (a class instance)';
          const name = tag.slice(8, -1);
          return (/^[AEIOU]/.test(name) ? 'an ' : 'a ') + name;
        }
        default:
          return undefined;
      }
    };

    const endValue = (value) => {
      if (value === undefined) {
        finish('none');
        return;
      }
      let bad;
      // Depth by holder: the engine's own serializer would go on to its stack limit (which
      // QuickJS reaches slowly); the core refuses a value nested past 120 levels anyway.
      const depths = new WM();
      const replacer = function (key, x) {
        if (bad !== undefined) return undefined;
        if (x !== null && typeof x === 'object') {
          const depth = (apply(wmGet, depths, [this]) ?? 0) + 1;
          if (depth > MAX_DEPTH) {
            bad = 'a value nested deeper than ' + MAX_DEPTH + ' levels';
            return undefined;
          }
          apply(wmSet, depths, [x, depth]);
        }
        const what = notData(this, key, x);
        if (what !== undefined) {
          bad = what + (key === '' ? '' : ' at the key ' + stringify(S(key)));
          return undefined;
        }
        return x;
      };
      let text;
      try {
        text = stringify(value, replacer);
      } catch (e) {
        finish('unserializable', 'the returned value is not JSON data: ' + errorText(e));
        return;
      }
      if (bad !== undefined) finish('unserializable', 'the returned value is not JSON data: it is or holds ' + bad);
      else finish('value', text);
    };

    const endThrown = (e) => {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        const id = apply(wmGet, delivered, [e]);
        if (id !== undefined) {
          finish('bridge', id);
          return;
        }
      }
      let name;
      let message;
      let stack;
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        try { name = e.name; } catch {}
        try { message = e.message; } catch {}
        try { stack = e.stack; } catch {}
        if (typeof message !== 'string') {
          try { message = stringify(e); } catch {}
        }
      } else if (typeof e === 'string') {
        message = e;
      }
      if (typeof message !== 'string') {
        try { message = S(e); } catch { message = '[unprintable value]'; }
      }
      finish('guest', typeof name === 'string' ? name : 'Error', message, typeof stack === 'string' ? stack : '');
    };

    const watch = (promise) => {
      apply(then, promise, [endValue, endThrown]);
    };

    return { codemode: lenient(freeze(codemode), unknownNamespace), console, settle, watch };
  };
})()`;
