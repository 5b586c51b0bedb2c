/*
 * @msw/data 1.1.7 (https://github.com/mswjs/data) with vendor/msw-data/lazy-records.patch applied,
 * bundled with its dependencies by scripts/vendor-msw-data.mjs. Generated: do not edit.
 * Why: vendor/msw-data/README.md.
 *
 * @msw/data 1.1.7:
 * MIT License
 *
 * Copyright (c) 2020–present Artem Zakharchenko
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 *
 * es-toolkit 1.53.2:
 * MIT License
 *
 * Copyright (c) 2024 Viva Republica, Inc.
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 * in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all
 * copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 * SOFTWARE.
 *
 * mutative 1.3.0:
 * MIT License
 *
 * Copyright (c) 2022 Michael Lin
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 * in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all
 * copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 * SOFTWARE.
 *
 * outvariant 1.4.3:
 * MIT License
 *
 * Copyright (c) 2021–present Artem Zakharchenko
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 *
 * rettime 0.11.12:
 * MIT License
 *
 * Copyright (c) 2024—present Artem Zakharchenko
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 */

// node_modules/es-toolkit/dist/compat/util/eq.mjs
function eq(value, other) {
  return value === other || Number.isNaN(value) && Number.isNaN(other);
}

// node_modules/es-toolkit/dist/compat/predicate/isSymbol.mjs
function isSymbol(value) {
  return typeof value === "symbol" || value instanceof Symbol;
}

// node_modules/es-toolkit/dist/compat/_internal/baseToString.mjs
function baseToString(value) {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    let result2 = "";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) result2 += ",";
      result2 += baseToString(value[i]);
    }
    return result2;
  }
  if (isSymbol(value)) return value.toString();
  const result = value + "";
  if (result === "0" && Object.is(Number(value), -0)) return "-0";
  return result;
}

// node_modules/es-toolkit/dist/compat/util/toString.mjs
function toString(value) {
  if (value == null) return "";
  return baseToString(value);
}

// node_modules/es-toolkit/dist/compat/_internal/toKey.mjs
function toKey(value) {
  var _value$valueOf;
  if (typeof value === "string" || typeof value === "symbol") return value;
  if (Object.is(value === null || value === void 0 || (_value$valueOf = value.valueOf) === null || _value$valueOf === void 0 ? void 0 : _value$valueOf.call(value), -0)) return "-0";
  return String(value);
}

// node_modules/es-toolkit/dist/compat/util/toPath.mjs
function toPath(deepKey) {
  if (Array.isArray(deepKey)) return deepKey.map(toKey);
  if (typeof deepKey === "symbol") return [deepKey];
  deepKey = toString(deepKey);
  const result = [];
  const length = deepKey.length;
  if (length === 0) return result;
  let index = 0;
  let key = "";
  let quoteChar = "";
  let bracket = false;
  let bracketHadQuote = false;
  const bracketNumberRegex = /^-?\d+(?:\.\d+)?$/;
  if (deepKey.charCodeAt(0) === 46) result.push("");
  while (index < length) {
    const char = deepKey[index];
    if (quoteChar) {
      if (char === "\\" && index + 1 < length) {
        index++;
        key += deepKey[index];
      } else if (char === quoteChar) quoteChar = "";
      else key += char;
    } else if (bracket) {
      if (char === '"' || char === "'") {
        quoteChar = char;
        bracketHadQuote = true;
      } else if (char === "]") {
        bracket = false;
        if (!bracketHadQuote && key.includes(".") && !bracketNumberRegex.test(key)) {
          const segments = key.split(".");
          for (let i = 0; i < segments.length; i++) if (segments[i] !== "") result.push(segments[i]);
        } else result.push(key);
        key = "";
      } else key += char;
    } else if (char === "[") {
      bracket = true;
      bracketHadQuote = false;
      if (key) {
        result.push(key);
        key = "";
      }
    } else if (char === ".") {
      if (key) {
        result.push(key);
        key = "";
      }
      const next = deepKey[index + 1];
      if (next === void 0 || next === ".") result.push("");
    } else key += char;
    index++;
  }
  if (key) result.push(key);
  return result;
}

// node_modules/es-toolkit/dist/_internal/isUnsafeProperty.mjs
function isUnsafeProperty(key) {
  return key === "__proto__";
}

// node_modules/es-toolkit/dist/compat/_internal/hasOwn.mjs
var hasOwnProperty = Object.prototype.hasOwnProperty;
function hasOwn(object, key) {
  return hasOwnProperty.call(object, key);
}

// node_modules/es-toolkit/dist/compat/_internal/isDeepKey.mjs
var regexIsDeepProp = /\.|(\[(?:[^[\]]*|(["'])(?:(?!\2)[^\\]|\\.)*?\2)\])/;
function isDeepKey(key) {
  switch (typeof key) {
    case "number":
    case "symbol":
      return false;
    case "string":
      if (key === "" || key.startsWith(".") || key.endsWith(".")) return false;
      return regexIsDeepProp.test(key);
    default:
      return false;
  }
}

// node_modules/es-toolkit/dist/compat/object/get.mjs
function get(object, path, defaultValue) {
  if (object == null) return defaultValue;
  switch (typeof path) {
    case "string": {
      if (isUnsafeProperty(path)) return defaultValue;
      const result = object[path];
      if (result === void 0) {
        if (isDeepKey(path) && !hasOwn(object, path)) return get(object, toPath(path), defaultValue);
        else return defaultValue;
      }
      return result;
    }
    case "number":
    case "symbol": {
      if (typeof path === "number") path = toKey(path);
      const result = object[path];
      if (result === void 0) return defaultValue;
      return result;
    }
    default: {
      if (Array.isArray(path)) return getWithPath(object, path, defaultValue);
      if (Object.is(path === null || path === void 0 ? void 0 : path.valueOf(), -0)) path = "-0";
      else path = String(path);
      if (isUnsafeProperty(path)) return defaultValue;
      const result = object[path];
      if (result === void 0) return defaultValue;
      return result;
    }
  }
}
function getWithPath(object, path, defaultValue) {
  if (path.length === 0) return defaultValue;
  let current2 = object;
  for (let index = 0; index < path.length; index++) {
    if (current2 == null) return defaultValue;
    if (isUnsafeProperty(path[index])) return defaultValue;
    current2 = current2[path[index]];
  }
  if (current2 === void 0) return defaultValue;
  return current2;
}

// node_modules/es-toolkit/dist/compat/predicate/isObject.mjs
function isObject(value) {
  return value !== null && (typeof value === "object" || typeof value === "function");
}

// node_modules/es-toolkit/dist/compat/_internal/getTag.mjs
function getTag(value) {
  if (value == null) return value === void 0 ? "[object Undefined]" : "[object Null]";
  return Object.prototype.toString.call(value);
}

// node_modules/es-toolkit/dist/compat/_internal/tags.mjs
var regexpTag = "[object RegExp]";
var stringTag = "[object String]";
var numberTag = "[object Number]";
var booleanTag = "[object Boolean]";
var symbolTag = "[object Symbol]";
var dateTag = "[object Date]";
var mapTag = "[object Map]";
var setTag = "[object Set]";
var arrayTag = "[object Array]";
var functionTag = "[object Function]";
var arrayBufferTag = "[object ArrayBuffer]";
var objectTag = "[object Object]";
var errorTag = "[object Error]";
var dataViewTag = "[object DataView]";
var uint8ArrayTag = "[object Uint8Array]";
var uint8ClampedArrayTag = "[object Uint8ClampedArray]";
var uint16ArrayTag = "[object Uint16Array]";
var uint32ArrayTag = "[object Uint32Array]";
var bigUint64ArrayTag = "[object BigUint64Array]";
var int8ArrayTag = "[object Int8Array]";
var int16ArrayTag = "[object Int16Array]";
var int32ArrayTag = "[object Int32Array]";
var bigInt64ArrayTag = "[object BigInt64Array]";
var float32ArrayTag = "[object Float32Array]";
var float64ArrayTag = "[object Float64Array]";

// node_modules/es-toolkit/dist/_internal/globalThis.mjs
var globalThis_ = typeof globalThis === "object" && globalThis || typeof window === "object" && window || typeof self === "object" && self || typeof global === "object" && global || /* @__PURE__ */ (function() {
  return this;
})();

// node_modules/es-toolkit/dist/predicate/isBuffer.mjs
function isBuffer(x) {
  return typeof globalThis_.Buffer !== "undefined" && globalThis_.Buffer.isBuffer(x);
}

// node_modules/es-toolkit/dist/compat/_internal/getSymbols.mjs
function getSymbols(object) {
  return Object.getOwnPropertySymbols(object).filter((symbol) => Object.prototype.propertyIsEnumerable.call(object, symbol));
}

// node_modules/es-toolkit/dist/compat/_internal/isIndex.mjs
var IS_UNSIGNED_INTEGER = /^(?:0|[1-9]\d*)$/;
function isIndex(value, length = Number.MAX_SAFE_INTEGER) {
  switch (typeof value) {
    case "number":
      return Number.isInteger(value) && value >= 0 && value < length;
    case "symbol":
      return false;
    case "string":
      return IS_UNSIGNED_INTEGER.test(value);
  }
}

// node_modules/es-toolkit/dist/compat/_internal/isKey.mjs
var regexIsDeepProp2 = /\.|\[(?:[^[\]]*|(["'])(?:(?!\1)[^\\]|\\.)*?\1)\]/;
var regexIsPlainProp = /^\w*$/;
function isKey(value, object) {
  if (Array.isArray(value)) return false;
  if (typeof value === "number" || typeof value === "boolean" || value == null || isSymbol(value)) return true;
  return typeof value === "string" && (regexIsPlainProp.test(value) || !regexIsDeepProp2.test(value)) || object != null && hasOwn(object, value);
}

// node_modules/es-toolkit/dist/_internal/isUnsafeToWriteProperty.mjs
function isUnsafeToWriteProperty(key) {
  return key === "__proto__" || key === "constructor" || key === "prototype";
}

// node_modules/es-toolkit/dist/compat/object/unset.mjs
function unset(obj, path) {
  if (obj == null) return true;
  switch (typeof path) {
    case "symbol":
    case "number":
    case "object":
      if (Array.isArray(path)) return unsetWithPath(obj, path);
      if (typeof path === "number") path = toKey(path);
      else if (typeof path === "object") {
        if (Object.is(path === null || path === void 0 ? void 0 : path.valueOf(), -0)) path = "-0";
        else path = String(path);
      }
      if (isUnsafeProperty(path)) return false;
      if ((obj === null || obj === void 0 ? void 0 : obj[path]) === void 0) return true;
      try {
        delete obj[path];
        return true;
      } catch (e) {
        return false;
      }
    case "string":
      if ((obj === null || obj === void 0 ? void 0 : obj[path]) === void 0 && isDeepKey(path) && !hasOwn(obj, path)) return unsetWithPath(obj, toPath(path));
      if (isUnsafeProperty(path)) return false;
      try {
        delete obj[path];
        return true;
      } catch (e) {
        return false;
      }
  }
}
function unsetWithPath(obj, path) {
  const keys = path.map((key) => toKey(key));
  const parentKeys = keys.slice(0, -1);
  const lastKey = keys[keys.length - 1];
  if (parentKeys.some((key) => isUnsafeToWriteProperty(key))) return false;
  const parent = keys.length === 1 ? obj : get(obj, parentKeys);
  if ((parent === null || parent === void 0 ? void 0 : parent[lastKey]) === void 0) return true;
  if (isUnsafeProperty(lastKey)) return false;
  try {
    delete parent[lastKey];
    return true;
  } catch (e) {
    return false;
  }
}

// node_modules/es-toolkit/dist/compat/_internal/assignValue.mjs
var assignValue = (object, key, value) => {
  const objValue = object[key];
  if (!(hasOwn(object, key) && eq(objValue, value)) || value === void 0 && !(key in object)) object[key] = value;
};

// node_modules/es-toolkit/dist/compat/object/updateWith.mjs
function updateWith(obj, path, updater, customizer) {
  if (obj == null && !isObject(obj)) return obj;
  let resolvedPath;
  if (isKey(path, obj)) resolvedPath = [path];
  else if (Array.isArray(path)) resolvedPath = path;
  else resolvedPath = toPath(path);
  const updateValue = updater(get(obj, resolvedPath));
  let current2 = obj;
  for (let i = 0; i < resolvedPath.length && current2 != null; i++) {
    const key = toKey(resolvedPath[i]);
    if (isUnsafeToWriteProperty(key)) return obj;
    let newValue;
    if (i === resolvedPath.length - 1) newValue = updateValue;
    else {
      const objValue = current2[key];
      const customizerResult = customizer === null || customizer === void 0 ? void 0 : customizer(objValue, key, obj);
      newValue = customizerResult !== void 0 ? customizerResult : isObject(objValue) ? objValue : isIndex(resolvedPath[i + 1]) ? [] : {};
    }
    assignValue(current2, key, newValue);
    current2 = current2[key];
  }
  return obj;
}

// node_modules/es-toolkit/dist/compat/object/set.mjs
function set(obj, path, value) {
  return updateWith(obj, path, () => value, () => void 0);
}

// node_modules/es-toolkit/dist/function/noop.mjs
function noop() {
}

// node_modules/es-toolkit/dist/predicate/isPlainObject.mjs
function isPlainObject(value) {
  if (!value || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  if (!(proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null)) return false;
  return Object.prototype.toString.call(value) === "[object Object]";
}

// node_modules/mutative/dist/mutative.esm.mjs
var Operation = {
  Remove: "remove",
  Replace: "replace",
  Add: "add"
};
var PROXY_DRAFT = /* @__PURE__ */ Symbol.for("__MUTATIVE_PROXY_DRAFT__");
var RAW_RETURN_SYMBOL = /* @__PURE__ */ Symbol("__MUTATIVE_RAW_RETURN_SYMBOL__");
var iteratorSymbol = Symbol.iterator;
var dataTypes = {
  mutable: "mutable",
  immutable: "immutable"
};
var internal = {};
function has(target, key) {
  return target instanceof Map ? target.has(key) : Object.prototype.hasOwnProperty.call(target, key);
}
function getDescriptor(target, key) {
  if (key in target) {
    let prototype = Reflect.getPrototypeOf(target);
    while (prototype) {
      const descriptor = Reflect.getOwnPropertyDescriptor(prototype, key);
      if (descriptor)
        return descriptor;
      prototype = Reflect.getPrototypeOf(prototype);
    }
  }
  return;
}
function isBaseSetInstance(obj) {
  return Object.getPrototypeOf(obj) === Set.prototype;
}
function isBaseMapInstance(obj) {
  return Object.getPrototypeOf(obj) === Map.prototype;
}
function latest(proxyDraft) {
  var _a;
  return (_a = proxyDraft.copy) !== null && _a !== void 0 ? _a : proxyDraft.original;
}
function isDraft(target) {
  return !!getProxyDraft(target);
}
function getProxyDraft(value) {
  if (typeof value !== "object")
    return null;
  return value === null || value === void 0 ? void 0 : value[PROXY_DRAFT];
}
function getValue(value) {
  var _a;
  const proxyDraft = getProxyDraft(value);
  return proxyDraft ? (_a = proxyDraft.copy) !== null && _a !== void 0 ? _a : proxyDraft.original : value;
}
function isDraftable(value, options) {
  if (!value || typeof value !== "object")
    return false;
  let markResult;
  return Object.getPrototypeOf(value) === Object.prototype || Array.isArray(value) || value instanceof Map || value instanceof Set || !!(options === null || options === void 0 ? void 0 : options.mark) && ((markResult = options.mark(value, dataTypes)) === dataTypes.immutable || typeof markResult === "function");
}
function getPath(target, path = []) {
  if (Object.hasOwnProperty.call(target, "key")) {
    const parentCopy = target.parent.copy;
    const proxyDraft = getProxyDraft(get2(parentCopy, target.key));
    if (proxyDraft !== null && (proxyDraft === null || proxyDraft === void 0 ? void 0 : proxyDraft.original) !== target.original) {
      return null;
    }
    const isSet = target.parent.type === 3;
    const key = isSet ? Array.from(target.parent.setMap.keys()).indexOf(target.key) : target.key;
    if (!(isSet && parentCopy.size > key || has(parentCopy, key)))
      return null;
    path.push(key);
  }
  if (target.parent) {
    return getPath(target.parent, path);
  }
  path.reverse();
  try {
    resolvePath(target.copy, path);
  } catch (e) {
    return null;
  }
  return path;
}
function getType(target) {
  if (Array.isArray(target))
    return 1;
  if (target instanceof Map)
    return 2;
  if (target instanceof Set)
    return 3;
  return 0;
}
function get2(target, key) {
  return getType(target) === 2 ? target.get(key) : target[key];
}
function set2(target, key, value) {
  const type = getType(target);
  if (type === 2) {
    target.set(key, value);
  } else {
    target[key] = value;
  }
}
function peek(target, key) {
  const state = getProxyDraft(target);
  const source = state ? latest(state) : target;
  return source[key];
}
function isEqual(x, y) {
  if (x === y) {
    return x !== 0 || 1 / x === 1 / y;
  } else {
    return x !== x && y !== y;
  }
}
function revokeProxy(proxyDraft) {
  if (!proxyDraft)
    return;
  while (proxyDraft.finalities.revoke.length > 0) {
    const revoke = proxyDraft.finalities.revoke.pop();
    revoke();
  }
}
function escapePath(path, pathAsArray) {
  return pathAsArray ? path : [""].concat(path).map((_item) => {
    const item = `${_item}`;
    if (item.indexOf("/") === -1 && item.indexOf("~") === -1)
      return item;
    return item.replace(/~/g, "~0").replace(/\//g, "~1");
  }).join("/");
}
function unescapePath(path) {
  if (Array.isArray(path))
    return path;
  return path.split("/").map((_item) => _item.replace(/~1/g, "/").replace(/~0/g, "~")).slice(1);
}
function resolvePath(base, path) {
  for (let index = 0; index < path.length - 1; index += 1) {
    const key = path[index];
    base = get2(getType(base) === 3 ? Array.from(base) : base, key);
    if (typeof base !== "object") {
      throw new Error(`Cannot resolve patch at '${path.join("/")}'.`);
    }
  }
  return base;
}
function strictCopy(target) {
  const copy = Object.create(Object.getPrototypeOf(target));
  Reflect.ownKeys(target).forEach((key) => {
    let desc = Reflect.getOwnPropertyDescriptor(target, key);
    if (desc.enumerable && desc.configurable && desc.writable) {
      copy[key] = target[key];
      return;
    }
    if (!desc.writable) {
      desc.writable = true;
      desc.configurable = true;
    }
    if (desc.get || desc.set)
      desc = {
        configurable: true,
        writable: true,
        enumerable: desc.enumerable,
        value: target[key]
      };
    Reflect.defineProperty(copy, key, desc);
  });
  return copy;
}
var propIsEnum = Object.prototype.propertyIsEnumerable;
function shallowCopy(original, options) {
  let markResult;
  if (Array.isArray(original)) {
    return Array.prototype.concat.call(original);
  } else if (original instanceof Set) {
    if (!isBaseSetInstance(original)) {
      const SubClass = Object.getPrototypeOf(original).constructor;
      return new SubClass(original.values());
    }
    return Set.prototype.difference ? Set.prototype.difference.call(original, /* @__PURE__ */ new Set()) : new Set(original.values());
  } else if (original instanceof Map) {
    if (!isBaseMapInstance(original)) {
      const SubClass = Object.getPrototypeOf(original).constructor;
      return new SubClass(original);
    }
    return new Map(original);
  } else if ((options === null || options === void 0 ? void 0 : options.mark) && (markResult = options.mark(original, dataTypes), markResult !== void 0) && markResult !== dataTypes.mutable) {
    if (markResult === dataTypes.immutable) {
      return strictCopy(original);
    } else if (typeof markResult === "function") {
      if (options.enablePatches || options.enableAutoFreeze) {
        throw new Error(`You can't use mark and patches or auto freeze together.`);
      }
      return markResult();
    }
    throw new Error(`Unsupported mark result: ${markResult}`);
  } else if (typeof original === "object" && Object.getPrototypeOf(original) === Object.prototype) {
    const copy = {};
    Object.keys(original).forEach((key) => {
      copy[key] = original[key];
    });
    Object.getOwnPropertySymbols(original).forEach((key) => {
      if (propIsEnum.call(original, key)) {
        copy[key] = original[key];
      }
    });
    return copy;
  } else {
    throw new Error(`Please check mark() to ensure that it is a stable marker draftable function.`);
  }
}
function ensureShallowCopy(target) {
  if (target.copy)
    return;
  target.copy = shallowCopy(target.original, target.options);
}
function deepClone(target) {
  if (!isDraftable(target))
    return getValue(target);
  if (Array.isArray(target))
    return target.map(deepClone);
  if (target instanceof Map) {
    const iterable = Array.from(target.entries()).map(([k, v]) => [
      k,
      deepClone(v)
    ]);
    if (!isBaseMapInstance(target)) {
      const SubClass = Object.getPrototypeOf(target).constructor;
      return new SubClass(iterable);
    }
    return new Map(iterable);
  }
  if (target instanceof Set) {
    const iterable = Array.from(target).map(deepClone);
    if (!isBaseSetInstance(target)) {
      const SubClass = Object.getPrototypeOf(target).constructor;
      return new SubClass(iterable);
    }
    return new Set(iterable);
  }
  const copy = Object.create(Object.getPrototypeOf(target));
  for (const key in target)
    copy[key] = deepClone(target[key]);
  return copy;
}
function cloneIfNeeded(target) {
  return isDraft(target) ? deepClone(target) : target;
}
function markChanged(proxyDraft) {
  var _a;
  proxyDraft.assignedMap = (_a = proxyDraft.assignedMap) !== null && _a !== void 0 ? _a : /* @__PURE__ */ new Map();
  if (!proxyDraft.operated) {
    proxyDraft.operated = true;
    if (proxyDraft.parent) {
      markChanged(proxyDraft.parent);
    }
  }
}
function throwFrozenError() {
  throw new Error("Cannot modify frozen object");
}
function deepFreeze(target, subKey, updatedValues, stack, keys) {
  {
    updatedValues = updatedValues !== null && updatedValues !== void 0 ? updatedValues : /* @__PURE__ */ new WeakMap();
    stack = stack !== null && stack !== void 0 ? stack : [];
    keys = keys !== null && keys !== void 0 ? keys : [];
    const value = updatedValues.has(target) ? updatedValues.get(target) : target;
    if (stack.length > 0) {
      const index = stack.indexOf(value);
      if (value && typeof value === "object" && index !== -1) {
        if (stack[0] === value) {
          throw new Error(`Forbids circular reference`);
        }
        throw new Error(`Forbids circular reference: ~/${keys.slice(0, index).map((key, index2) => {
          if (typeof key === "symbol")
            return `[${key.toString()}]`;
          const parent = stack[index2];
          if (typeof key === "object" && (parent instanceof Map || parent instanceof Set))
            return Array.from(parent.keys()).indexOf(key);
          return key;
        }).join("/")}`);
      }
      stack.push(value);
      keys.push(subKey);
    } else {
      stack.push(value);
    }
  }
  if (Object.isFrozen(target) || isDraft(target)) {
    {
      stack.pop();
      keys.pop();
    }
    return;
  }
  const type = getType(target);
  switch (type) {
    case 2:
      for (const [key, value] of target) {
        deepFreeze(key, key, updatedValues, stack, keys);
        deepFreeze(value, key, updatedValues, stack, keys);
      }
      target.set = target.clear = target.delete = throwFrozenError;
      break;
    case 3:
      for (const value of target) {
        deepFreeze(value, value, updatedValues, stack, keys);
      }
      target.add = target.clear = target.delete = throwFrozenError;
      break;
    case 1:
      Object.freeze(target);
      let index = 0;
      for (const value of target) {
        deepFreeze(value, index, updatedValues, stack, keys);
        index += 1;
      }
      break;
    default:
      Object.freeze(target);
      Object.keys(target).forEach((name) => {
        const value = target[name];
        deepFreeze(value, name, updatedValues, stack, keys);
      });
  }
  {
    stack.pop();
    keys.pop();
  }
}
function forEach(target, iter) {
  const type = getType(target);
  if (type === 0) {
    Reflect.ownKeys(target).forEach((key) => {
      iter(key, target[key], target);
    });
  } else if (type === 1) {
    let index = 0;
    for (const entry of target) {
      iter(index, entry, target);
      index += 1;
    }
  } else {
    target.forEach((entry, index) => iter(index, entry, target));
  }
}
function handleValue(target, handledSet, options) {
  if (isDraft(target) || !isDraftable(target, options) || handledSet.has(target) || Object.isFrozen(target))
    return;
  const isSet = target instanceof Set;
  const setMap = isSet ? /* @__PURE__ */ new Map() : void 0;
  handledSet.add(target);
  forEach(target, (key, value) => {
    var _a;
    if (isDraft(value)) {
      const proxyDraft = getProxyDraft(value);
      ensureShallowCopy(proxyDraft);
      const updatedValue = ((_a = proxyDraft.assignedMap) === null || _a === void 0 ? void 0 : _a.size) || proxyDraft.operated ? proxyDraft.copy : proxyDraft.original;
      set2(isSet ? setMap : target, key, updatedValue);
    } else {
      handleValue(value, handledSet, options);
    }
  });
  if (setMap) {
    const set3 = target;
    const values = Array.from(set3);
    set3.clear();
    values.forEach((value) => {
      set3.add(setMap.has(value) ? setMap.get(value) : value);
    });
  }
}
function finalizeAssigned(proxyDraft, key) {
  const copy = proxyDraft.type === 3 ? proxyDraft.setMap : proxyDraft.copy;
  if (proxyDraft.finalities.revoke.length > 1 && proxyDraft.assignedMap.get(key) && copy) {
    handleValue(get2(copy, key), proxyDraft.finalities.handledSet, proxyDraft.options);
  }
}
function finalizeSetValue(target) {
  if (target.type === 3 && target.copy) {
    target.copy.clear();
    target.setMap.forEach((value) => {
      target.copy.add(getValue(value));
    });
  }
}
function finalizePatches(target, generatePatches2, patches, inversePatches) {
  const shouldFinalize = target.operated && target.assignedMap && target.assignedMap.size > 0 && !target.finalized;
  if (shouldFinalize) {
    if (patches && inversePatches) {
      const basePath = getPath(target);
      if (basePath) {
        generatePatches2(target, basePath, patches, inversePatches);
      }
    }
    target.finalized = true;
  }
}
function markFinalization(target, key, value, generatePatches2) {
  const proxyDraft = getProxyDraft(value);
  if (proxyDraft) {
    if (!proxyDraft.callbacks) {
      proxyDraft.callbacks = [];
    }
    proxyDraft.callbacks.push((patches, inversePatches) => {
      var _a;
      const copy = target.type === 3 ? target.setMap : target.copy;
      if (isEqual(get2(copy, key), value)) {
        let updatedValue = proxyDraft.original;
        if (proxyDraft.copy) {
          updatedValue = proxyDraft.copy;
        }
        finalizeSetValue(target);
        finalizePatches(target, generatePatches2, patches, inversePatches);
        if (target.options.enableAutoFreeze) {
          target.options.updatedValues = (_a = target.options.updatedValues) !== null && _a !== void 0 ? _a : /* @__PURE__ */ new WeakMap();
          target.options.updatedValues.set(updatedValue, proxyDraft.original);
        }
        set2(copy, key, updatedValue);
      }
    });
    if (target.options.enableAutoFreeze) {
      if (proxyDraft.finalities !== target.finalities) {
        target.options.enableAutoFreeze = false;
      }
    }
  }
  if (isDraftable(value, target.options)) {
    target.finalities.draft.push(() => {
      const copy = target.type === 3 ? target.setMap : target.copy;
      if (isEqual(get2(copy, key), value)) {
        finalizeAssigned(target, key);
      }
    });
  }
}
function generateArrayPatches(proxyState, basePath, patches, inversePatches, pathAsArray) {
  let { original, assignedMap, options } = proxyState;
  let copy = proxyState.copy;
  if (copy.length < original.length) {
    [original, copy] = [copy, original];
    [patches, inversePatches] = [inversePatches, patches];
  }
  for (let index = 0; index < original.length; index += 1) {
    if (assignedMap.get(index.toString()) && copy[index] !== original[index]) {
      const _path = basePath.concat([index]);
      const path = escapePath(_path, pathAsArray);
      patches.push({
        op: Operation.Replace,
        path,
        // If it is a draft, it needs to be deep cloned, and it may also be non-draft.
        value: cloneIfNeeded(copy[index])
      });
      inversePatches.push({
        op: Operation.Replace,
        path,
        // If it is a draft, it needs to be deep cloned, and it may also be non-draft.
        value: cloneIfNeeded(original[index])
      });
    }
  }
  for (let index = original.length; index < copy.length; index += 1) {
    const _path = basePath.concat([index]);
    const path = escapePath(_path, pathAsArray);
    patches.push({
      op: Operation.Add,
      path,
      // If it is a draft, it needs to be deep cloned, and it may also be non-draft.
      value: cloneIfNeeded(copy[index])
    });
  }
  if (original.length < copy.length) {
    const { arrayLengthAssignment = true } = options.enablePatches;
    if (arrayLengthAssignment) {
      const _path = basePath.concat(["length"]);
      const path = escapePath(_path, pathAsArray);
      inversePatches.push({
        op: Operation.Replace,
        path,
        value: original.length
      });
    } else {
      for (let index = copy.length; original.length < index; index -= 1) {
        const _path = basePath.concat([index - 1]);
        const path = escapePath(_path, pathAsArray);
        inversePatches.push({
          op: Operation.Remove,
          path
        });
      }
    }
  }
}
function generatePatchesFromAssigned({ original, copy, assignedMap }, basePath, patches, inversePatches, pathAsArray) {
  assignedMap.forEach((assignedValue, key) => {
    const originalValue = get2(original, key);
    const value = cloneIfNeeded(get2(copy, key));
    const op = !assignedValue ? Operation.Remove : has(original, key) ? Operation.Replace : Operation.Add;
    if (isEqual(originalValue, value) && op === Operation.Replace)
      return;
    const _path = basePath.concat(key);
    const path = escapePath(_path, pathAsArray);
    patches.push(op === Operation.Remove ? { op, path } : { op, path, value });
    inversePatches.push(op === Operation.Add ? { op: Operation.Remove, path } : op === Operation.Remove ? { op: Operation.Add, path, value: originalValue } : { op: Operation.Replace, path, value: originalValue });
  });
}
function generateSetPatches({ original, copy }, basePath, patches, inversePatches, pathAsArray) {
  let index = 0;
  original.forEach((value) => {
    if (!copy.has(value)) {
      const _path = basePath.concat([index]);
      const path = escapePath(_path, pathAsArray);
      patches.push({
        op: Operation.Remove,
        path,
        value
      });
      inversePatches.unshift({
        op: Operation.Add,
        path,
        value
      });
    }
    index += 1;
  });
  index = 0;
  copy.forEach((value) => {
    if (!original.has(value)) {
      const _path = basePath.concat([index]);
      const path = escapePath(_path, pathAsArray);
      patches.push({
        op: Operation.Add,
        path,
        value
      });
      inversePatches.unshift({
        op: Operation.Remove,
        path,
        value
      });
    }
    index += 1;
  });
}
function generatePatches(proxyState, basePath, patches, inversePatches) {
  const { pathAsArray = true } = proxyState.options.enablePatches;
  switch (proxyState.type) {
    case 0:
    case 2:
      return generatePatchesFromAssigned(proxyState, basePath, patches, inversePatches, pathAsArray);
    case 1:
      return generateArrayPatches(proxyState, basePath, patches, inversePatches, pathAsArray);
    case 3:
      return generateSetPatches(proxyState, basePath, patches, inversePatches, pathAsArray);
  }
}
var readable = false;
var checkReadable = (value, options, ignoreCheckDraftable = false) => {
  if (typeof value === "object" && value !== null && (!isDraftable(value, options) || ignoreCheckDraftable) && !readable) {
    throw new Error(`Strict mode: Mutable data cannot be accessed directly, please use 'unsafe(callback)' wrap.`);
  }
};
var mapHandler = {
  get size() {
    const current2 = latest(getProxyDraft(this));
    return current2.size;
  },
  has(key) {
    return latest(getProxyDraft(this)).has(key);
  },
  set(key, value) {
    const target = getProxyDraft(this);
    const source = latest(target);
    if (!source.has(key) || !isEqual(source.get(key), value)) {
      ensureShallowCopy(target);
      markChanged(target);
      target.assignedMap.set(key, true);
      target.copy.set(key, value);
      markFinalization(target, key, value, generatePatches);
    }
    return this;
  },
  delete(key) {
    if (!this.has(key)) {
      return false;
    }
    const target = getProxyDraft(this);
    ensureShallowCopy(target);
    markChanged(target);
    if (target.original.has(key)) {
      target.assignedMap.set(key, false);
    } else {
      target.assignedMap.delete(key);
    }
    target.copy.delete(key);
    return true;
  },
  clear() {
    const target = getProxyDraft(this);
    if (!this.size)
      return;
    ensureShallowCopy(target);
    markChanged(target);
    target.assignedMap = /* @__PURE__ */ new Map();
    for (const [key] of target.original) {
      target.assignedMap.set(key, false);
    }
    target.copy.clear();
  },
  forEach(callback, thisArg) {
    const target = getProxyDraft(this);
    latest(target).forEach((_value, _key) => {
      callback.call(thisArg, this.get(_key), _key, this);
    });
  },
  get(key) {
    var _a, _b;
    const target = getProxyDraft(this);
    const value = latest(target).get(key);
    const mutable = ((_b = (_a = target.options).mark) === null || _b === void 0 ? void 0 : _b.call(_a, value, dataTypes)) === dataTypes.mutable;
    if (target.options.strict) {
      checkReadable(value, target.options, mutable);
    }
    if (mutable) {
      return value;
    }
    if (target.finalized || !isDraftable(value, target.options)) {
      return value;
    }
    if (value !== target.original.get(key)) {
      return value;
    }
    const draft = internal.createDraft({
      original: value,
      parentDraft: target,
      key,
      finalities: target.finalities,
      options: target.options
    });
    ensureShallowCopy(target);
    target.copy.set(key, draft);
    return draft;
  },
  keys() {
    return latest(getProxyDraft(this)).keys();
  },
  values() {
    const iterator = this.keys();
    return {
      [iteratorSymbol]: () => this.values(),
      next: () => {
        const result = iterator.next();
        if (result.done)
          return result;
        const value = this.get(result.value);
        return {
          done: false,
          value
        };
      }
    };
  },
  entries() {
    const iterator = this.keys();
    return {
      [iteratorSymbol]: () => this.entries(),
      next: () => {
        const result = iterator.next();
        if (result.done)
          return result;
        const value = this.get(result.value);
        return {
          done: false,
          value: [result.value, value]
        };
      }
    };
  },
  [iteratorSymbol]() {
    return this.entries();
  }
};
var mapHandlerKeys = Reflect.ownKeys(mapHandler);
var getNextIterator = (target, iterator, { isValuesIterator }) => () => {
  var _a, _b;
  const result = iterator.next();
  if (result.done)
    return result;
  const key = result.value;
  let value = target.setMap.get(key);
  const currentDraft = getProxyDraft(value);
  const mutable = ((_b = (_a = target.options).mark) === null || _b === void 0 ? void 0 : _b.call(_a, value, dataTypes)) === dataTypes.mutable;
  if (target.options.strict) {
    checkReadable(key, target.options, mutable);
  }
  if (!mutable && !currentDraft && isDraftable(key, target.options) && !target.finalized && target.original.has(key)) {
    const proxy = internal.createDraft({
      original: key,
      parentDraft: target,
      key,
      finalities: target.finalities,
      options: target.options
    });
    target.setMap.set(key, proxy);
    value = proxy;
  } else if (currentDraft) {
    value = currentDraft.proxy;
  }
  return {
    done: false,
    value: isValuesIterator ? value : [value, value]
  };
};
var setHandler = {
  get size() {
    const target = getProxyDraft(this);
    return target.setMap.size;
  },
  has(value) {
    const target = getProxyDraft(this);
    if (target.setMap.has(value))
      return true;
    ensureShallowCopy(target);
    const valueProxyDraft = getProxyDraft(value);
    if (valueProxyDraft && target.setMap.has(valueProxyDraft.original))
      return true;
    return false;
  },
  add(value) {
    const target = getProxyDraft(this);
    if (!this.has(value)) {
      ensureShallowCopy(target);
      markChanged(target);
      target.assignedMap.set(value, true);
      target.setMap.set(value, value);
      markFinalization(target, value, value, generatePatches);
    }
    return this;
  },
  delete(value) {
    if (!this.has(value)) {
      return false;
    }
    const target = getProxyDraft(this);
    ensureShallowCopy(target);
    markChanged(target);
    const valueProxyDraft = getProxyDraft(value);
    if (valueProxyDraft && target.setMap.has(valueProxyDraft.original)) {
      target.assignedMap.set(valueProxyDraft.original, false);
      return target.setMap.delete(valueProxyDraft.original);
    }
    if (!valueProxyDraft && target.setMap.has(value)) {
      target.assignedMap.set(value, false);
    } else {
      target.assignedMap.delete(value);
    }
    return target.setMap.delete(value);
  },
  clear() {
    if (!this.size)
      return;
    const target = getProxyDraft(this);
    ensureShallowCopy(target);
    markChanged(target);
    for (const value of target.original) {
      target.assignedMap.set(value, false);
    }
    target.setMap.clear();
  },
  values() {
    const target = getProxyDraft(this);
    ensureShallowCopy(target);
    const iterator = target.setMap.keys();
    return {
      [Symbol.iterator]: () => this.values(),
      next: getNextIterator(target, iterator, { isValuesIterator: true })
    };
  },
  entries() {
    const target = getProxyDraft(this);
    ensureShallowCopy(target);
    const iterator = target.setMap.keys();
    return {
      [Symbol.iterator]: () => this.entries(),
      next: getNextIterator(target, iterator, {
        isValuesIterator: false
      })
    };
  },
  keys() {
    return this.values();
  },
  [iteratorSymbol]() {
    return this.values();
  },
  forEach(callback, thisArg) {
    const iterator = this.values();
    let result = iterator.next();
    while (!result.done) {
      callback.call(thisArg, result.value, result.value, this);
      result = iterator.next();
    }
  }
};
if (Set.prototype.difference) {
  Object.assign(setHandler, {
    intersection(other) {
      return Set.prototype.intersection.call(new Set(this.values()), other);
    },
    union(other) {
      return Set.prototype.union.call(new Set(this.values()), other);
    },
    difference(other) {
      return Set.prototype.difference.call(new Set(this.values()), other);
    },
    symmetricDifference(other) {
      return Set.prototype.symmetricDifference.call(new Set(this.values()), other);
    },
    isSubsetOf(other) {
      return Set.prototype.isSubsetOf.call(new Set(this.values()), other);
    },
    isSupersetOf(other) {
      return Set.prototype.isSupersetOf.call(new Set(this.values()), other);
    },
    isDisjointFrom(other) {
      return Set.prototype.isDisjointFrom.call(new Set(this.values()), other);
    }
  });
}
var setHandlerKeys = Reflect.ownKeys(setHandler);
var proxyHandler = {
  get(target, key, receiver) {
    var _a, _b;
    const copy = (_a = target.copy) === null || _a === void 0 ? void 0 : _a[key];
    if (copy && target.finalities.draftsCache.has(copy)) {
      return copy;
    }
    if (key === PROXY_DRAFT)
      return target;
    let markResult;
    if (target.options.mark) {
      const value2 = key === "size" && (target.original instanceof Map || target.original instanceof Set) ? Reflect.get(target.original, key) : Reflect.get(target.original, key, receiver);
      markResult = target.options.mark(value2, dataTypes);
      if (markResult === dataTypes.mutable) {
        if (target.options.strict) {
          checkReadable(value2, target.options, true);
        }
        return value2;
      }
    }
    const source = latest(target);
    if (source instanceof Map && mapHandlerKeys.includes(key)) {
      if (key === "size") {
        return Object.getOwnPropertyDescriptor(mapHandler, "size").get.call(target.proxy);
      }
      const handle = mapHandler[key];
      return handle.bind(target.proxy);
    }
    if (source instanceof Set && setHandlerKeys.includes(key)) {
      if (key === "size") {
        return Object.getOwnPropertyDescriptor(setHandler, "size").get.call(target.proxy);
      }
      const handle = setHandler[key];
      return handle.bind(target.proxy);
    }
    if (!has(source, key)) {
      const desc = getDescriptor(source, key);
      return desc ? `value` in desc ? desc.value : (
        // !case: support for getter
        (_b = desc.get) === null || _b === void 0 ? void 0 : _b.call(target.proxy)
      ) : void 0;
    }
    const value = source[key];
    if (target.options.strict) {
      checkReadable(value, target.options);
    }
    if (target.finalized || !isDraftable(value, target.options)) {
      return value;
    }
    if (value === peek(target.original, key)) {
      ensureShallowCopy(target);
      target.copy[key] = createDraft({
        original: target.original[key],
        parentDraft: target,
        key: target.type === 1 ? Number(key) : key,
        finalities: target.finalities,
        options: target.options
      });
      if (typeof markResult === "function") {
        const subProxyDraft = getProxyDraft(target.copy[key]);
        ensureShallowCopy(subProxyDraft);
        markChanged(subProxyDraft);
        return subProxyDraft.copy;
      }
      return target.copy[key];
    }
    if (isDraft(value)) {
      target.finalities.draftsCache.add(value);
    }
    return value;
  },
  set(target, key, value) {
    var _a;
    if (target.type === 3 || target.type === 2) {
      throw new Error(`Map/Set draft does not support any property assignment.`);
    }
    let _key;
    if (target.type === 1 && key !== "length" && !(Number.isInteger(_key = Number(key)) && _key >= 0 && (key === 0 || _key === 0 || String(_key) === String(key)))) {
      throw new Error(`Only supports setting array indices and the 'length' property.`);
    }
    const desc = getDescriptor(latest(target), key);
    if (desc === null || desc === void 0 ? void 0 : desc.set) {
      desc.set.call(target.proxy, value);
      return true;
    }
    const current2 = peek(latest(target), key);
    const currentProxyDraft = getProxyDraft(current2);
    if (currentProxyDraft && isEqual(currentProxyDraft.original, value)) {
      target.copy[key] = value;
      target.assignedMap = (_a = target.assignedMap) !== null && _a !== void 0 ? _a : /* @__PURE__ */ new Map();
      target.assignedMap.set(key, false);
      return true;
    }
    if (isEqual(value, current2) && (value !== void 0 || has(target.original, key)))
      return true;
    ensureShallowCopy(target);
    markChanged(target);
    if (has(target.original, key) && isEqual(value, target.original[key])) {
      target.assignedMap.delete(key);
    } else {
      target.assignedMap.set(key, true);
    }
    target.copy[key] = value;
    markFinalization(target, key, value, generatePatches);
    return true;
  },
  has(target, key) {
    return key in latest(target);
  },
  ownKeys(target) {
    return Reflect.ownKeys(latest(target));
  },
  getOwnPropertyDescriptor(target, key) {
    const source = latest(target);
    const descriptor = Reflect.getOwnPropertyDescriptor(source, key);
    if (!descriptor)
      return descriptor;
    return {
      writable: true,
      configurable: target.type !== 1 || key !== "length",
      enumerable: descriptor.enumerable,
      value: source[key]
    };
  },
  getPrototypeOf(target) {
    return Reflect.getPrototypeOf(target.original);
  },
  setPrototypeOf() {
    throw new Error(`Cannot call 'setPrototypeOf()' on drafts`);
  },
  defineProperty() {
    throw new Error(`Cannot call 'defineProperty()' on drafts`);
  },
  deleteProperty(target, key) {
    var _a;
    if (target.type === 1) {
      return proxyHandler.set.call(this, target, key, void 0, target.proxy);
    }
    if (peek(target.original, key) !== void 0 || key in target.original) {
      ensureShallowCopy(target);
      markChanged(target);
      target.assignedMap.set(key, false);
    } else {
      target.assignedMap = (_a = target.assignedMap) !== null && _a !== void 0 ? _a : /* @__PURE__ */ new Map();
      target.assignedMap.delete(key);
    }
    if (target.copy)
      delete target.copy[key];
    return true;
  }
};
function createDraft(createDraftOptions) {
  const { original, parentDraft, key, finalities, options } = createDraftOptions;
  const type = getType(original);
  const proxyDraft = {
    type,
    finalized: false,
    parent: parentDraft,
    original,
    copy: null,
    proxy: null,
    finalities,
    options,
    // Mapping of draft Set items to their corresponding draft values.
    setMap: type === 3 ? new Map(original.entries()) : void 0
  };
  if (key || "key" in createDraftOptions) {
    proxyDraft.key = key;
  }
  const { proxy, revoke } = Proxy.revocable(type === 1 ? Object.assign([], proxyDraft) : proxyDraft, proxyHandler);
  finalities.revoke.push(revoke);
  proxyDraft.proxy = proxy;
  if (parentDraft) {
    const target = parentDraft;
    target.finalities.draft.push((patches, inversePatches) => {
      var _a, _b;
      const oldProxyDraft = getProxyDraft(proxy);
      let copy = target.type === 3 ? target.setMap : target.copy;
      const draft = get2(copy, key);
      const proxyDraft2 = getProxyDraft(draft);
      if (proxyDraft2) {
        let updatedValue = proxyDraft2.original;
        if (proxyDraft2.operated) {
          updatedValue = getValue(draft);
        }
        finalizeSetValue(proxyDraft2);
        finalizePatches(proxyDraft2, generatePatches, patches, inversePatches);
        if (target.options.enableAutoFreeze) {
          target.options.updatedValues = (_a = target.options.updatedValues) !== null && _a !== void 0 ? _a : /* @__PURE__ */ new WeakMap();
          target.options.updatedValues.set(updatedValue, proxyDraft2.original);
        }
        set2(copy, key, updatedValue);
      }
      (_b = oldProxyDraft.callbacks) === null || _b === void 0 ? void 0 : _b.forEach((callback) => {
        callback(patches, inversePatches);
      });
    });
  } else {
    const target = getProxyDraft(proxy);
    target.finalities.draft.push((patches, inversePatches) => {
      finalizeSetValue(target);
      finalizePatches(target, generatePatches, patches, inversePatches);
    });
  }
  return proxy;
}
internal.createDraft = createDraft;
function finalizeDraft(result, returnedValue, patches, inversePatches, enableAutoFreeze) {
  var _a;
  const proxyDraft = getProxyDraft(result);
  const original = (_a = proxyDraft === null || proxyDraft === void 0 ? void 0 : proxyDraft.original) !== null && _a !== void 0 ? _a : result;
  const hasReturnedValue = !!returnedValue.length;
  if (proxyDraft === null || proxyDraft === void 0 ? void 0 : proxyDraft.operated) {
    while (proxyDraft.finalities.draft.length > 0) {
      const finalize = proxyDraft.finalities.draft.pop();
      finalize(patches, inversePatches);
    }
  }
  const state = hasReturnedValue ? returnedValue[0] : proxyDraft ? proxyDraft.operated ? proxyDraft.copy : proxyDraft.original : result;
  if (proxyDraft)
    revokeProxy(proxyDraft);
  if (enableAutoFreeze) {
    deepFreeze(state, state, proxyDraft === null || proxyDraft === void 0 ? void 0 : proxyDraft.options.updatedValues);
  }
  return [
    state,
    patches && hasReturnedValue ? [{ op: Operation.Replace, path: [], value: returnedValue[0] }] : patches,
    inversePatches && hasReturnedValue ? [{ op: Operation.Replace, path: [], value: original }] : inversePatches
  ];
}
function draftify(baseState, options) {
  var _a;
  const finalities = {
    draft: [],
    revoke: [],
    handledSet: /* @__PURE__ */ new WeakSet(),
    draftsCache: /* @__PURE__ */ new WeakSet()
  };
  let patches;
  let inversePatches;
  if (options.enablePatches) {
    patches = [];
    inversePatches = [];
  }
  const isMutable = ((_a = options.mark) === null || _a === void 0 ? void 0 : _a.call(options, baseState, dataTypes)) === dataTypes.mutable || !isDraftable(baseState, options);
  const draft = isMutable ? baseState : createDraft({
    original: baseState,
    parentDraft: null,
    finalities,
    options
  });
  return [
    draft,
    (returnedValue = []) => {
      const [finalizedState, finalizedPatches, finalizedInversePatches] = finalizeDraft(draft, returnedValue, patches, inversePatches, options.enableAutoFreeze);
      return options.enablePatches ? [finalizedState, finalizedPatches, finalizedInversePatches] : finalizedState;
    }
  ];
}
function handleReturnValue(options) {
  const { rootDraft, value, useRawReturn = false, isRoot = true } = options;
  forEach(value, (key, item, source) => {
    const proxyDraft = getProxyDraft(item);
    if (proxyDraft && rootDraft && proxyDraft.finalities === rootDraft.finalities) {
      options.isContainDraft = true;
      const currentValue = proxyDraft.original;
      if (source instanceof Set) {
        const arr = Array.from(source);
        source.clear();
        arr.forEach((_item) => source.add(key === _item ? currentValue : _item));
      } else {
        set2(source, key, currentValue);
      }
    } else if (typeof item === "object" && item !== null) {
      options.value = item;
      options.isRoot = false;
      handleReturnValue(options);
    }
  });
  if (isRoot) {
    if (!options.isContainDraft)
      console.warn(`The return value does not contain any draft, please use 'rawReturn()' to wrap the return value to improve performance.`);
    if (useRawReturn) {
      console.warn(`The return value contains drafts, please don't use 'rawReturn()' to wrap the return value.`);
    }
  }
}
function getCurrent(target) {
  var _a;
  const proxyDraft = getProxyDraft(target);
  if (!isDraftable(target, proxyDraft === null || proxyDraft === void 0 ? void 0 : proxyDraft.options))
    return target;
  const type = getType(target);
  if (proxyDraft && !proxyDraft.operated)
    return proxyDraft.original;
  let currentValue;
  function ensureShallowCopy2() {
    currentValue = type === 2 ? !isBaseMapInstance(target) ? new (Object.getPrototypeOf(target)).constructor(target) : new Map(target) : type === 3 ? Array.from(proxyDraft.setMap.values()) : shallowCopy(target, proxyDraft === null || proxyDraft === void 0 ? void 0 : proxyDraft.options);
  }
  if (proxyDraft) {
    proxyDraft.finalized = true;
    try {
      ensureShallowCopy2();
    } finally {
      proxyDraft.finalized = false;
    }
  } else {
    currentValue = target;
  }
  forEach(currentValue, (key, value) => {
    if (proxyDraft && isEqual(get2(proxyDraft.original, key), value))
      return;
    const newValue = getCurrent(value);
    if (newValue !== value) {
      if (currentValue === target)
        ensureShallowCopy2();
      set2(currentValue, key, newValue);
    }
  });
  if (type === 3) {
    const value = (_a = proxyDraft === null || proxyDraft === void 0 ? void 0 : proxyDraft.original) !== null && _a !== void 0 ? _a : currentValue;
    return !isBaseSetInstance(value) ? new (Object.getPrototypeOf(value)).constructor(currentValue) : new Set(currentValue);
  }
  return currentValue;
}
function current(target) {
  if (!isDraft(target)) {
    throw new Error(`current() is only used for Draft, parameter: ${target}`);
  }
  return getCurrent(target);
}
var makeCreator = (arg) => {
  if (arg !== void 0 && Object.prototype.toString.call(arg) !== "[object Object]") {
    throw new Error(`Invalid options: ${String(arg)}, 'options' should be an object.`);
  }
  return function create2(arg0, arg1, arg2) {
    var _a, _b, _c;
    if (typeof arg0 === "function" && typeof arg1 !== "function") {
      return function(base2, ...args) {
        return create2(base2, (draft2) => arg0.call(this, draft2, ...args), arg1);
      };
    }
    const base = arg0;
    const mutate = arg1;
    let options = arg2;
    if (typeof arg1 !== "function") {
      options = arg1;
    }
    if (options !== void 0 && Object.prototype.toString.call(options) !== "[object Object]") {
      throw new Error(`Invalid options: ${options}, 'options' should be an object.`);
    }
    options = Object.assign(Object.assign({}, arg), options);
    const state = isDraft(base) ? current(base) : base;
    const mark = Array.isArray(options.mark) ? ((value, types) => {
      for (const mark2 of options.mark) {
        if (typeof mark2 !== "function") {
          throw new Error(`Invalid mark: ${mark2}, 'mark' should be a function.`);
        }
        const result2 = mark2(value, types);
        if (result2) {
          return result2;
        }
      }
      return;
    }) : options.mark;
    const enablePatches = (_a = options.enablePatches) !== null && _a !== void 0 ? _a : false;
    const strict = (_b = options.strict) !== null && _b !== void 0 ? _b : false;
    const enableAutoFreeze = (_c = options.enableAutoFreeze) !== null && _c !== void 0 ? _c : false;
    const _options = {
      enableAutoFreeze,
      mark,
      strict,
      enablePatches
    };
    if (!isDraftable(state, _options) && typeof state === "object" && state !== null) {
      throw new Error(`Invalid base state: create() only supports plain objects, arrays, Set, Map or using mark() to mark the state as immutable.`);
    }
    const [draft, finalize] = draftify(state, _options);
    if (typeof arg1 !== "function") {
      if (!isDraftable(state, _options)) {
        throw new Error(`Invalid base state: create() only supports plain objects, arrays, Set, Map or using mark() to mark the state as immutable.`);
      }
      return [draft, finalize];
    }
    let result;
    try {
      result = mutate(draft);
    } catch (error) {
      revokeProxy(getProxyDraft(draft));
      throw error;
    }
    const returnValue = (value) => {
      const proxyDraft = getProxyDraft(draft);
      if (!isDraft(value)) {
        if (value !== void 0 && !isEqual(value, draft) && (proxyDraft === null || proxyDraft === void 0 ? void 0 : proxyDraft.operated)) {
          throw new Error(`Either the value is returned as a new non-draft value, or only the draft is modified without returning any value.`);
        }
        const rawReturnValue = value === null || value === void 0 ? void 0 : value[RAW_RETURN_SYMBOL];
        if (rawReturnValue) {
          const _value = rawReturnValue[0];
          if (_options.strict && typeof value === "object" && value !== null) {
            handleReturnValue({
              rootDraft: proxyDraft,
              value,
              useRawReturn: true
            });
          }
          return finalize([_value]);
        }
        if (value !== void 0) {
          if (typeof value === "object" && value !== null) {
            handleReturnValue({ rootDraft: proxyDraft, value });
          }
          return finalize([value]);
        }
      }
      if (value === draft || value === void 0) {
        return finalize([]);
      }
      const returnedProxyDraft = getProxyDraft(value);
      if (_options === returnedProxyDraft.options) {
        if (returnedProxyDraft.operated) {
          throw new Error(`Cannot return a modified child draft.`);
        }
        return finalize([current(value)]);
      }
      return finalize([value]);
    };
    if (result instanceof Promise) {
      return result.then(returnValue, (error) => {
        revokeProxy(getProxyDraft(draft));
        throw error;
      });
    }
    return returnValue(result);
  };
};
var create = makeCreator();
function apply(state, patches, applyOptions) {
  let i;
  for (i = patches.length - 1; i >= 0; i -= 1) {
    const { value, op, path } = patches[i];
    if (!path.length && op === Operation.Replace || path === "" && op === Operation.Add) {
      state = value;
      break;
    }
  }
  if (i > -1) {
    patches = patches.slice(i + 1);
  }
  const mutate = (draft) => {
    patches.forEach((patch) => {
      const { path: _path, op } = patch;
      const path = unescapePath(_path);
      let base = draft;
      for (let index = 0; index < path.length - 1; index += 1) {
        const parentType = getType(base);
        let key2 = path[index];
        if (typeof key2 !== "string" && typeof key2 !== "number") {
          key2 = String(key2);
        }
        if ((parentType === 0 || parentType === 1) && (key2 === "__proto__" || key2 === "constructor") || typeof base === "function" && key2 === "prototype") {
          throw new Error(`Patching reserved attributes like __proto__ and constructor is not allowed.`);
        }
        base = get2(parentType === 3 ? Array.from(base) : base, key2);
        if (typeof base !== "object") {
          throw new Error(`Cannot apply patch at '${path.join("/")}'.`);
        }
      }
      const type = getType(base);
      const value = deepClone(patch.value);
      const key = path[path.length - 1];
      switch (op) {
        case Operation.Replace:
          switch (type) {
            case 2:
              return base.set(key, value);
            case 3:
              throw new Error(`Cannot apply replace patch to set.`);
            default:
              return base[key] = value;
          }
        case Operation.Add:
          switch (type) {
            case 1:
              return key === "-" ? base.push(value) : base.splice(key, 0, value);
            case 2:
              return base.set(key, value);
            case 3:
              return base.add(value);
            default:
              return base[key] = value;
          }
        case Operation.Remove:
          switch (type) {
            case 1:
              return base.splice(key, 1);
            case 2:
              return base.delete(key);
            case 3:
              return base.delete(patch.value);
            default:
              return delete base[key];
          }
        default:
          throw new Error(`Unsupported patch operation: ${op}.`);
      }
    });
  };
  if (applyOptions === null || applyOptions === void 0 ? void 0 : applyOptions.mutable) {
    {
      if (Object.keys(applyOptions).filter((key) => key !== "mutable").length) {
        console.warn('The "mutable" option is not allowed to be used with other options.');
      }
    }
    mutate(state);
    return void 0;
  }
  if (isDraft(state)) {
    if (applyOptions !== void 0) {
      throw new Error(`Cannot apply patches with options to a draft.`);
    }
    mutate(state);
    return state;
  }
  return create(state, mutate, Object.assign(Object.assign({}, applyOptions), { enablePatches: false }));
}
var constructorString = Object.prototype.constructor.toString();

// node_modules/outvariant/lib/index.mjs
var POSITIONALS_EXP = /(%?)(%([sdijo]))/g;
function serializePositional(positional, flag) {
  switch (flag) {
    case "s":
      return positional;
    case "d":
    case "i":
      return Number(positional);
    case "j":
      return JSON.stringify(positional);
    case "o": {
      if (typeof positional === "string") {
        return positional;
      }
      const json = JSON.stringify(positional);
      if (json === "{}" || json === "[]" || /^\[object .+?\]$/.test(json)) {
        return positional;
      }
      return json;
    }
  }
}
function format(message, ...positionals) {
  if (positionals.length === 0) {
    return message;
  }
  let positionalIndex = 0;
  let formattedMessage = message.replace(
    POSITIONALS_EXP,
    (match, isEscaped, _, flag) => {
      const positional = positionals[positionalIndex];
      const value = serializePositional(positional, flag);
      if (!isEscaped) {
        positionalIndex++;
        return value;
      }
      return match;
    }
  );
  if (positionalIndex < positionals.length) {
    formattedMessage += ` ${positionals.slice(positionalIndex).join(" ")}`;
  }
  formattedMessage = formattedMessage.replace(/%{2,2}/g, "%");
  return formattedMessage;
}
var STACK_FRAMES_TO_IGNORE = 2;
function cleanErrorStack(error) {
  if (!error.stack) {
    return;
  }
  const nextStack = error.stack.split("\n");
  nextStack.splice(1, STACK_FRAMES_TO_IGNORE);
  error.stack = nextStack.join("\n");
}
var InvariantError = class extends Error {
  constructor(message, ...positionals) {
    super(message);
    this.message = message;
    this.name = "Invariant Violation";
    this.message = format(message, ...positionals);
    cleanErrorStack(this);
  }
};
var invariant = (predicate, message, ...positionals) => {
  if (!predicate) {
    throw new InvariantError(message, ...positionals);
  }
};
invariant.as = (ErrorConstructor, predicate, message, ...positionals) => {
  if (!predicate) {
    const formatMessage = positionals.length === 0 ? message : format(message, ...positionals);
    let error;
    try {
      error = Reflect.construct(ErrorConstructor, [
        formatMessage
      ]);
    } catch (err) {
      error = ErrorConstructor(formatMessage);
    }
    throw error;
  }
};

// @msw/data/src/logger.ts
var IS_LOGGING_ENABLED = false;
var Logger = class _Logger {
  constructor(domain) {
    this.domain = domain;
  }
  domain;
  log(...args) {
    if (IS_LOGGING_ENABLED) {
      console.log(`[${this.domain}]`, ...args);
    }
  }
  warn(...args) {
    if (IS_LOGGING_ENABLED) {
      console.warn(`[${this.domain}]`, ...args);
    }
  }
  trace(...args) {
    if (IS_LOGGING_ENABLED) {
      console.trace(`[${this.domain}]`, ...args);
    }
  }
  extend(subdomain) {
    return new _Logger(`${this.domain}] [${subdomain}`);
  }
};

// node_modules/rettime/build/lens-list.mjs
var LensList = class {
  #list;
  #lens;
  constructor() {
    this.#list = [];
    this.#lens = /* @__PURE__ */ new Map();
  }
  get [Symbol.iterator]() {
    return this.#list[Symbol.iterator].bind(this.#list);
  }
  entries() {
    return this.#lens.entries();
  }
  /**
  * Return an order-sensitive list of values by the given key.
  */
  get(key) {
    return this.#lens.get(key) || [];
  }
  /**
  * Return an order-sensitive list of all values.
  */
  getAll() {
    return this.#list.map(([, value]) => value);
  }
  /**
  * Append a new value to the given key.
  */
  append(key, value) {
    this.#list.push([key, value]);
    this.#openLens(key, (list) => list.push(value));
  }
  /**
  * Prepend a new value to the given key.
  */
  prepend(key, value) {
    this.#list.unshift([key, value]);
    this.#openLens(key, (list) => list.unshift(value));
  }
  /**
  * Delete the value belonging to the given key.
  * Returns `true` if the value was present and removed, `false` otherwise.
  */
  delete(key, value) {
    if (this.size === 0) return false;
    const values = this.#lens.get(key);
    if (!values) return false;
    const index = values.indexOf(value);
    if (index === -1) return false;
    values.splice(index, 1);
    this.#list.splice(this.#list.findIndex((item) => item[0] === key && item[1] === value), 1);
    return true;
  }
  /**
  * Delete all values belogning to the given key.
  */
  deleteAll(key) {
    if (this.size === 0) return;
    this.#list = this.#list.filter((item) => item[0] !== key);
    this.#lens.delete(key);
  }
  get size() {
    return this.#list.length;
  }
  clear() {
    if (this.size === 0) return;
    this.#list.length = 0;
    this.#lens.clear();
  }
  #openLens(key, setter) {
    setter(this.#lens.get(key) || this.#lens.set(key, []).get(key));
  }
};

// node_modules/rettime/build/index.mjs
var kDefaultPrevented = /* @__PURE__ */ Symbol("kDefaultPrevented");
var kPropagationStopped = /* @__PURE__ */ Symbol("kPropagationStopped");
var kImmediatePropagationStopped = /* @__PURE__ */ Symbol("kImmediatePropagationStopped");
var TypedEvent = class extends MessageEvent {
  /**
  * @note Keep a placeholder property with the return type
  * because the type must be set somewhere in order to be
  * correctly associated and inferred from the event.
  */
  #returnType;
  [kDefaultPrevented];
  [kPropagationStopped];
  [kImmediatePropagationStopped];
  constructor(...args) {
    super(args[0], args[1] ?? {});
    this[kDefaultPrevented] = false;
  }
  get defaultPrevented() {
    return this[kDefaultPrevented];
  }
  preventDefault() {
    super.preventDefault();
    this[kDefaultPrevented] = true;
  }
  stopImmediatePropagation() {
    super.stopImmediatePropagation();
    this[kImmediatePropagationStopped] = true;
  }
};
var Emitter = class {
  #listeners;
  #listenerOptions;
  #listenerAbortCleanups;
  #typelessListeners;
  #hookListeners;
  #hookListenerOptions;
  #hookListenerAbortCleanups;
  hooks;
  constructor() {
    this.#listeners = new LensList();
    this.#listenerOptions = /* @__PURE__ */ new WeakMap();
    this.#listenerAbortCleanups = /* @__PURE__ */ new WeakMap();
    this.#typelessListeners = /* @__PURE__ */ new WeakSet();
    this.#hookListeners = new LensList();
    this.#hookListenerOptions = /* @__PURE__ */ new WeakMap();
    this.#hookListenerAbortCleanups = /* @__PURE__ */ new WeakMap();
    this.hooks = {
      on: (hook, callback, options) => {
        if (options?.signal?.aborted) return;
        if (options?.once) {
          const original = callback;
          const wrapper = ((...args) => {
            this.#deleteHookListener(hook, wrapper);
            return original(...args);
          });
          callback = wrapper;
        }
        this.#hookListeners.append(hook, callback);
        if (options) this.#hookListenerOptions.set(callback, options);
        if (options?.signal) {
          const { signal } = options;
          const onAbort = () => {
            this.#deleteHookListener(hook, callback);
          };
          signal.addEventListener("abort", onAbort, { once: true });
          this.#hookListenerAbortCleanups.set(callback, () => {
            signal.removeEventListener("abort", onAbort);
          });
        }
      },
      removeListener: (hook, callback) => {
        this.#deleteHookListener(hook, callback);
      }
    };
  }
  #deleteHookListener(hook, callback) {
    this.#hookListeners.delete(hook, callback);
    const cleanup = this.#hookListenerAbortCleanups.get(callback);
    if (cleanup) {
      cleanup();
      this.#hookListenerAbortCleanups.delete(callback);
    }
  }
  #deleteListener(type, listener) {
    const removed = this.#listeners.delete(type, listener);
    const cleanup = this.#listenerAbortCleanups.get(listener);
    if (cleanup) {
      cleanup();
      this.#listenerAbortCleanups.delete(listener);
    }
    return removed;
  }
  /**
  * Adds a listener for the given event type.
  */
  on(type, listener, options) {
    this.#addListener(type, listener, options);
    return this;
  }
  /**
  * Adds a one-time listener for the given event type.
  */
  once(type, listener, options) {
    return this.on(type, listener, {
      ...options || {},
      once: true
    });
  }
  /**
  * Prepends a listener for the given event type.
  */
  earlyOn(type, listener, options) {
    this.#addListener(type, listener, options, "prepend");
    return this;
  }
  /**
  * Prepends a one-time listener for the given event type.
  */
  earlyOnce(type, listener, options) {
    return this.earlyOn(type, listener, {
      ...options || {},
      once: true
    });
  }
  /**
  * Emits the given typed event.
  *
  * @returns {boolean} Returns `true` if the event had any listeners, `false` otherwise.
  */
  emit(event) {
    if (this.#listeners.size === 0) return false;
    const hasListeners = this.listenerCount(event.type) > 0;
    const proxiedEvent = this.#proxyEvent(event);
    for (const listener of this.#matchListeners(event.type)) {
      if (proxiedEvent.event[kPropagationStopped] != null && proxiedEvent.event[kPropagationStopped] !== this) {
        proxiedEvent.revoke();
        return false;
      }
      if (proxiedEvent.event[kImmediatePropagationStopped]) break;
      this.#callListener(proxiedEvent.event, listener);
    }
    proxiedEvent.revoke();
    return hasListeners;
  }
  /**
  * Emits the given typed event and returns a promise that resolves
  * when all the listeners for that event have settled.
  *
  * @returns {Promise<Array<Emitter.ListenerReturnType>>} A promise that resolves
  * with the return values of all listeners.
  */
  async emitAsPromise(event) {
    if (this.#listeners.size === 0) return [];
    const pendingListeners = [];
    const proxiedEvent = this.#proxyEvent(event);
    for (const listener of this.#matchListeners(event.type)) {
      if (proxiedEvent.event[kPropagationStopped] != null && proxiedEvent.event[kPropagationStopped] !== this) {
        proxiedEvent.revoke();
        return [];
      }
      if (proxiedEvent.event[kImmediatePropagationStopped]) break;
      const returnValue = await Promise.resolve(this.#callListener(proxiedEvent.event, listener));
      if (!this.#isTypelessListener(listener)) pendingListeners.push(returnValue);
    }
    proxiedEvent.revoke();
    return Promise.allSettled(pendingListeners).then((results) => {
      return results.map((result) => result.status === "fulfilled" ? result.value : result.reason);
    });
  }
  /**
  * Emits the given event and returns a generator that yields
  * the result of each listener in the order of their registration.
  * This way, you stop exhausting the listeners once you get the expected value.
  */
  *emitAsGenerator(event) {
    if (this.#listeners.size === 0) return;
    const proxiedEvent = this.#proxyEvent(event);
    for (const listener of this.#matchListeners(event.type)) {
      if (proxiedEvent.event[kPropagationStopped] != null && proxiedEvent.event[kPropagationStopped] !== this) {
        proxiedEvent.revoke();
        return;
      }
      if (proxiedEvent.event[kImmediatePropagationStopped]) break;
      const returnValue = this.#callListener(proxiedEvent.event, listener);
      if (!this.#isTypelessListener(listener)) yield returnValue;
    }
    proxiedEvent.revoke();
  }
  /**
  * Removes a listener for the given event type.
  */
  removeListener(type, listener) {
    const options = this.#listenerOptions.get(listener);
    if (!this.#deleteListener(type, listener)) return;
    for (const hook of this.#hookListeners.get("removeListener").slice()) hook(type, listener, options);
  }
  /**
  * Removes all listeners for the given event type.
  * If no event type is provided, removes all existing listeners.
  */
  removeAllListeners(type) {
    if (type == null) {
      for (const [listenerType, listeners$1] of this.#listeners.entries()) while (listeners$1.length > 0) this.removeListener(listenerType, listeners$1[0]);
      for (const [hookType, hookListener] of [...this.#hookListeners]) if (!this.#hookListenerOptions.get(hookListener)?.persist) this.#deleteHookListener(hookType, hookListener);
      return;
    }
    const listeners = this.listeners(type);
    while (listeners.length > 0) this.removeListener(type, listeners[0]);
  }
  /**
  * Returns the list of listeners for the given event type.
  * If no even type is provided, returns all listeners.
  */
  listeners(type) {
    if (type == null) return this.#listeners.getAll();
    return this.#listeners.get(type);
  }
  /**
  * Returns the number of listeners for the given event type.
  * If no even type is provided, returns the total number of listeners.
  */
  listenerCount(type) {
    if (type == null) return this.#listeners.size;
    return this.listeners(type).length;
  }
  #addListener(type, listener, options, insertMode = "append") {
    if (options?.signal?.aborted) return;
    for (const hook of this.#hookListeners.get("newListener").slice()) hook(type, listener, options);
    if (type === "*") this.#typelessListeners.add(listener);
    if (insertMode === "prepend") this.#listeners.prepend(type, listener);
    else this.#listeners.append(type, listener);
    if (options) {
      this.#listenerOptions.set(listener, options);
      if (options.signal) {
        const { signal } = options;
        const onAbort = () => {
          this.removeListener(type, listener);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        this.#listenerAbortCleanups.set(listener, () => {
          signal.removeEventListener("abort", onAbort);
        });
      }
    }
  }
  #proxyEvent(event) {
    const { stopPropagation } = event;
    event.stopPropagation = () => {
      event[kPropagationStopped] = this;
      stopPropagation.call(event);
    };
    return {
      event,
      revoke() {
        event.stopPropagation = stopPropagation;
      }
    };
  }
  #callListener(event, listener) {
    for (const hook of this.#hookListeners.get("beforeEmit").slice()) if (hook(event) === false) return;
    const returnValue = listener.call(this, event);
    const options = this.#listenerOptions.get(listener);
    if (options?.once) {
      const type = this.#isTypelessListener(listener) ? "*" : event.type;
      if (this.#deleteListener(type, listener)) for (const hook of this.#hookListeners.get("removeListener").slice()) hook(type, listener, options);
    }
    return returnValue;
  }
  /**
  * Return a list of all event listeners relevant for the given event type.
  * This includes the explicit event listeners and also typeless event listeners.
  *
  * @note Snapshot the matching listeners before yielding. Listeners can add or
  * remove other listeners during emission (e.g. `earlyOn` unshifts `#list`),
  * which would otherwise shift the live iterator and re-yield prior entries.
  */
  *#matchListeners(type) {
    const snapshot = [];
    for (const [key, listener] of this.#listeners) if (key === "*" || key === type) snapshot.push(listener);
    yield* snapshot;
  }
  #isTypelessListener(listener) {
    return this.#typelessListeners.has(listener);
  }
};

// @msw/data/src/hooks.ts
function createHooksEmitter() {
  const emitter = new Emitter();
  return emitter;
}

// node_modules/es-toolkit/dist/predicate/isEqualWith.mjs
function isEqualWith(a, b, areValuesEqual) {
  return isEqualWithImpl(a, b, void 0, void 0, void 0, void 0, areValuesEqual);
}
function isEqualWithImpl(a, b, property, aParent, bParent, stack, areValuesEqual) {
  const result = areValuesEqual(a, b, property, aParent, bParent, stack);
  if (result !== void 0) return result;
  if (typeof a === typeof b) switch (typeof a) {
    case "bigint":
    case "string":
    case "boolean":
    case "symbol":
    case "undefined":
      return a === b;
    case "number":
      return a === b || Object.is(a, b);
    case "function":
      return a === b;
    case "object":
      return areObjectsEqual(a, b, stack, areValuesEqual);
  }
  return areObjectsEqual(a, b, stack, areValuesEqual);
}
function areObjectsEqual(a, b, stack, areValuesEqual) {
  if (Object.is(a, b)) return true;
  let aTag = getTag(a);
  let bTag = getTag(b);
  if (aTag === "[object Arguments]") aTag = objectTag;
  if (bTag === "[object Arguments]") bTag = objectTag;
  if (aTag !== bTag) return false;
  switch (aTag) {
    case stringTag:
      return a.toString() === b.toString();
    case numberTag: {
      const x = a.valueOf();
      const y = b.valueOf();
      return eq(x, y);
    }
    case booleanTag:
    case dateTag:
    case symbolTag:
      return Object.is(a.valueOf(), b.valueOf());
    case regexpTag:
      return a.source === b.source && a.flags === b.flags;
    case functionTag:
      return a === b;
  }
  stack = stack ?? /* @__PURE__ */ new Map();
  const aStack = stack.get(a);
  const bStack = stack.get(b);
  if (aStack != null && bStack != null) return aStack === b;
  stack.set(a, b);
  stack.set(b, a);
  try {
    switch (aTag) {
      case mapTag:
        if (a.size !== b.size) return false;
        for (const [key, value] of a.entries()) if (!b.has(key) || !isEqualWithImpl(value, b.get(key), key, a, b, stack, areValuesEqual)) return false;
        return true;
      case setTag: {
        if (a.size !== b.size) return false;
        const aValues = Array.from(a.values());
        const bValues = Array.from(b.values());
        for (let i = 0; i < aValues.length; i++) {
          const aValue = aValues[i];
          const index = bValues.findIndex((bValue) => {
            return isEqualWithImpl(aValue, bValue, void 0, a, b, stack, areValuesEqual);
          });
          if (index === -1) return false;
          bValues.splice(index, 1);
        }
        return true;
      }
      case arrayTag:
      case uint8ArrayTag:
      case uint8ClampedArrayTag:
      case uint16ArrayTag:
      case uint32ArrayTag:
      case bigUint64ArrayTag:
      case int8ArrayTag:
      case int16ArrayTag:
      case int32ArrayTag:
      case bigInt64ArrayTag:
      case float32ArrayTag:
      case float64ArrayTag:
        if (isBuffer(a) !== isBuffer(b)) return false;
        if (a.length !== b.length) return false;
        for (let i = 0; i < a.length; i++) if (!isEqualWithImpl(a[i], b[i], i, a, b, stack, areValuesEqual)) return false;
        return true;
      case arrayBufferTag:
        if (a.byteLength !== b.byteLength) return false;
        return areObjectsEqual(new Uint8Array(a), new Uint8Array(b), stack, areValuesEqual);
      case dataViewTag:
        if (a.byteLength !== b.byteLength || a.byteOffset !== b.byteOffset) return false;
        return areObjectsEqual(new Uint8Array(a), new Uint8Array(b), stack, areValuesEqual);
      case errorTag:
        return a.name === b.name && a.message === b.message;
      case objectTag: {
        if (!(areObjectsEqual(a.constructor, b.constructor, stack, areValuesEqual) || isPlainObject(a) && isPlainObject(b))) return false;
        const aKeys = [...Object.keys(a), ...getSymbols(a)];
        const bKeys = [...Object.keys(b), ...getSymbols(b)];
        if (aKeys.length !== bKeys.length) return false;
        for (let i = 0; i < aKeys.length; i++) {
          const propKey = aKeys[i];
          const aProp = a[propKey];
          if (!Object.hasOwn(b, propKey)) return false;
          const bProp = b[propKey];
          if (!isEqualWithImpl(aProp, bProp, propKey, a, b, stack, areValuesEqual)) return false;
        }
        return true;
      }
      default:
        return false;
    }
  } finally {
    stack.delete(a);
    stack.delete(b);
  }
}

// node_modules/es-toolkit/dist/predicate/isEqual.mjs
function isEqual2(a, b) {
  return isEqualWith(a, b, noop);
}

// @msw/data/src/utils.ts
function isObject2(value) {
  return isPlainObject(value);
}
function isRecord(value) {
  return typeof value === "object" && value != null && kPrimaryKey in value;
}
function definePropertyAtPath(target, path, descriptor) {
  let deepTarget = target;
  const lastKey = path[path.length - 1];
  invariant(
    lastKey != null,
    'Failed to define a property at path "%j": expected the path to have at least one item',
    path
  );
  for (const key of path.slice(0, -1)) {
    invariant(
      typeof deepTarget[key] === "object",
      'Failed to define property at path "%j": part "%s" is not an object',
      path,
      key
    );
    deepTarget = deepTarget[key];
  }
  Object.defineProperty(deepTarget, lastKey, descriptor);
}
function toDeepEntries(source, entryPredicate = () => true, parentPath = []) {
  return Reflect.ownKeys(source).flatMap((key) => {
    const value = source[key];
    const path = parentPath.concat(key);
    if (entryPredicate(value, path)) {
      if (isObject2(value)) {
        return toDeepEntries(value, entryPredicate, path);
      }
    }
    return [[path, value]];
  });
}
function cloneWithInternals(value, predicate) {
  const clone = structuredClone(value);
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key];
    if (predicate({ key, descriptor }) ?? true) {
      Object.defineProperty(clone, key, descriptor);
    }
  }
  return clone;
}

// @msw/data/src/query.ts
var Query = class _Query {
  #predicate;
  constructor(predicate) {
    this.#predicate = predicate;
  }
  test(value) {
    return !!this.#predicate?.(value);
  }
  where(condition) {
    return new _Query(
      _Query.#and(this.#predicate, _Query.#normalize(condition))
    );
  }
  and(...conditions) {
    return new _Query(
      _Query.#and(this.#predicate, ...conditions.map(_Query.#normalize))
    );
  }
  or(...conditions) {
    return new _Query(
      _Query.#or(this.#predicate, ...conditions.map(_Query.#normalize))
    );
  }
  static #normalize(condition) {
    if (condition instanceof _Query) {
      return condition.#predicate;
    }
    if (typeof condition === "function") {
      return condition;
    }
    if (isObject2(condition)) {
      let compileCondition = function(condition2) {
        return (record) => {
          if (Array.isArray(record)) {
            return record.every((item) => compileCondition(condition2)(item));
          }
          return Object.entries(condition2).every(([key, selector]) => {
            const actualValue = record[key];
            if (actualValue === void 0) {
              return false;
            }
            if (Array.isArray(actualValue)) {
              return actualValue.every((value) => {
                return compileCondition(selector)(value);
              });
            }
            if (isObject2(actualValue)) {
              return compileCondition(selector)(actualValue);
            }
            if (typeof selector === "function") {
              return selector(actualValue);
            }
            return actualValue === selector;
          });
        };
      };
      return compileCondition(condition);
    }
    throw new TypeError("Invalid condition type");
  }
  static #and(...predicates) {
    return (value) => {
      return predicates.filter(Boolean).every((predicate) => {
        return predicate?.(value);
      });
    };
  }
  static #or(...predicates) {
    return (value) => {
      return predicates.filter(Boolean).some((predicate) => {
        return predicate?.(value);
      });
    };
  }
};

// @msw/data/src/errors.ts
var OperationError = class _OperationError extends Error {
  constructor(message, code, cause) {
    super(message);
    this.code = code;
    this.cause = cause;
  }
  code;
  cause;
  static for(code) {
    return (message) => {
      return new _OperationError(message, code);
    };
  }
};
var RelationErrorCodes = /* @__PURE__ */ ((RelationErrorCodes2) => {
  RelationErrorCodes2["RELATION_NOT_READY"] = "RELATION_NOT_READY";
  RelationErrorCodes2["UNEXPECTED_SET_EXPRESSION"] = "UNEXPECTED_SET_EXPRESSION";
  RelationErrorCodes2["INVALID_FOREIGN_RECORD"] = "INVALID_FOREIGN_RECORD";
  RelationErrorCodes2["FORBIDDEN_UNIQUE_CREATE"] = "FORBIDDEN_UNIQUE_CREATE";
  RelationErrorCodes2["FORBIDDEN_UNIQUE_UPDATE"] = "FORBIDDEN_UNIQUE_UPDATE";
  return RelationErrorCodes2;
})(RelationErrorCodes || {});
var RelationError = class _RelationError extends Error {
  constructor(message, code, details) {
    super(message);
    this.code = code;
    this.details = details;
  }
  code;
  details;
  static for(code, details) {
    return (message) => {
      return new _RelationError(message, code, details);
    };
  }
};

// @msw/data/src/relation.ts
var createRelationBuilder = (ownerCollection) => {
  return {
    one(foreignCollection, options) {
      return () => new One(
        ownerCollection,
        Array.isArray(foreignCollection) ? foreignCollection : [foreignCollection],
        options
      );
    },
    many(foreignCollection, options) {
      return () => new Many(
        ownerCollection,
        Array.isArray(foreignCollection) ? foreignCollection : [foreignCollection],
        options
      );
    }
  };
};
var Relation = class {
  constructor(ownerCollection, foreignCollections, options = {}) {
    this.ownerCollection = ownerCollection;
    this.foreignCollections = foreignCollections;
    this.options = options;
    this.#logger = new Logger("Relation");
    this.#logger.log("creating relation:", {
      ownerCollection,
      foreignCollections,
      options
    });
    this.foreignKeys = /* @__PURE__ */ new Set();
  }
  ownerCollection;
  foreignCollections;
  options;
  #logger;
  #path;
  foreignKeys;
  get path() {
    invariant(
      this.#path != null,
      "Failed to retrieve path for relation: relation is not initialized"
    );
    return this.#path;
  }
  /**
   * Initializes the relation on the owner record.
   */
  initialize(record, path, initialValues) {
    this.#path = path;
    const serializedPath = path.join(".");
    this.#initializeRelation(path, record, initialValues);
    const abortController = new AbortController();
    this.ownerCollection.hooks.on(
      "delete",
      (event) => {
        if (event.data.deletedRecord[kRelationMap].get(serializedPath) === this) {
          abortController.abort();
        }
      },
      { signal: abortController.signal }
    );
    for (const foreignCollection of this.foreignCollections) {
      foreignCollection.hooks.on(
        "create",
        (event) => {
          const { record: foreignRecord } = event.data;
          const foreignRelations = this.getRelationsToOwner(foreignRecord);
          for (const foreignRelation of foreignRelations) {
            const ownerRecords = this.ownerCollection.findMany(
              (q) => q.where((record2) => {
                return foreignRelation.foreignKeys.has(record2[kPrimaryKey]);
              })
            );
            for (const ownerRecord of ownerRecords) {
              const ownerRelation = ownerRecord[kRelationMap].get(serializedPath);
              ownerRelation.foreignKeys.add(foreignRecord[kPrimaryKey]);
            }
          }
        },
        { signal: abortController.signal }
      );
      foreignCollection.hooks.on(
        "delete",
        (event) => {
          const { deletedRecord: deletedForeignRecord } = event.data;
          this.foreignKeys.delete(deletedForeignRecord[kPrimaryKey]);
          if (this.options.onDelete === "cascade") {
            const foreignRelations = this.getRelationsToOwner(deletedForeignRecord);
            this.ownerCollection.deleteMany((q) => {
              return q.where((record2) => {
                return foreignRelations.some((foreignRelation) => {
                  return foreignRelation.foreignKeys.has(record2[kPrimaryKey]);
                });
              });
            });
          }
        },
        { signal: abortController.signal }
      );
    }
    this.ownerCollection.hooks.earlyOn(
      "update",
      (event) => {
        const update = event.data;
        if (update.path.length > path.length && path.every((key, index) => key === update.path[index]) && !isRecord(update.nextValue)) {
          if (update.prevRecord[kRelationMap].get(serializedPath) !== this) {
            return;
          }
          let targetForeignKey;
          let foreignUpdatePath;
          if (this instanceof Many) {
            const indexSegment = update.path[path.length];
            if (typeof indexSegment !== "number") {
              return;
            }
            const resolved = this.resolve(this.foreignKeys);
            if (!Array.isArray(resolved)) {
              return;
            }
            const targetRecord = resolved[indexSegment];
            if (!isRecord(targetRecord)) {
              return;
            }
            targetForeignKey = targetRecord[kPrimaryKey];
            foreignUpdatePath = update.path.slice(path.length + 1);
          } else {
            foreignUpdatePath = update.path.slice(path.length);
          }
          if (foreignUpdatePath.length === 0) {
            return;
          }
          event.preventDefault();
          event.stopImmediatePropagation();
          for (const foreignCollection of this.foreignCollections) {
            foreignCollection.updateMany(
              (q) => {
                return q.where((record2) => {
                  if (targetForeignKey != null) {
                    return record2[kPrimaryKey] === targetForeignKey;
                  }
                  return this.foreignKeys.has(record2[kPrimaryKey]);
                });
              },
              {
                data(foreignRecord) {
                  set(foreignRecord, foreignUpdatePath, update.nextValue);
                }
              }
            );
          }
        }
      },
      { signal: abortController.signal }
    );
    this.ownerCollection.hooks.on(
      "update",
      (event) => {
        const update = event.data;
        if (!isEqual2(update.path, path)) {
          return;
        }
        if (update.prevRecord[kRelationMap].get(serializedPath) !== this) {
          return;
        }
        if (this instanceof One && isRecord(update.nextValue)) {
          event.preventDefault();
          const oldForeignRecords = this.foreignCollections.flatMap(
            (foreignCollection) => {
              return foreignCollection.findMany((q) => {
                return q.where((record2) => {
                  return this.foreignKeys.has(record2[kPrimaryKey]);
                });
              });
            }
          );
          const foreignRelationsToDisassociate = oldForeignRecords.flatMap(
            (record2) => this.getRelationsToOwner(record2)
          );
          if (this.options.unique) {
            invariant.as(
              RelationError.for(
                "FORBIDDEN_UNIQUE_UPDATE" /* FORBIDDEN_UNIQUE_UPDATE */,
                this.#createErrorDetails()
              ),
              foreignRelationsToDisassociate.length === 0,
              'Failed to update a unique relation at "%s": the foreign record is already associated with another owner',
              update.path.join(".")
            );
          }
          for (const foreignRelation of foreignRelationsToDisassociate) {
            foreignRelation.foreignKeys.delete(update.prevRecord[kPrimaryKey]);
          }
          if (this.options.unique) {
            const otherOwnersAssociatedWithForeignRecord = this.#getOtherOwnerForRecords([update.nextValue]);
            invariant.as(
              RelationError.for(
                "FORBIDDEN_UNIQUE_UPDATE" /* FORBIDDEN_UNIQUE_UPDATE */,
                this.#createErrorDetails()
              ),
              otherOwnersAssociatedWithForeignRecord == null,
              'Failed to update a unique relation at "%s": the foreign record is already associated with another owner',
              update.path.join(".")
            );
          }
          this.foreignKeys.clear();
          const foreignRecord = update.nextValue;
          this.foreignKeys.add(foreignRecord[kPrimaryKey]);
          for (const foreignRelation of this.getRelationsToOwner(
            foreignRecord
          )) {
            foreignRelation.foreignKeys.add(update.prevRecord[kPrimaryKey]);
          }
        } else if (this instanceof Many && Array.isArray(update.nextValue)) {
          event.preventDefault();
          const nextForeignRecords = [];
          const nextForeignKeys = /* @__PURE__ */ new Set();
          for (const foreignRecord of update.nextValue) {
            invariant.as(
              RelationError.for(
                "INVALID_FOREIGN_RECORD" /* INVALID_FOREIGN_RECORD */,
                this.#createErrorDetails()
              ),
              isRecord(foreignRecord) && foreignRecord[kPrimaryKey] != null,
              'Failed to update a relation at "%s": expected relational value to be a record with a primary key, got "%j"',
              update.path.join("."),
              foreignRecord
            );
            nextForeignRecords.push(foreignRecord);
            nextForeignKeys.add(foreignRecord[kPrimaryKey]);
          }
          if (this.options.unique) {
            const addedForeignRecords = nextForeignRecords.filter(
              (record2) => !this.foreignKeys.has(record2[kPrimaryKey])
            );
            if (addedForeignRecords.length > 0) {
              const otherOwnersAssociatedWithForeignRecord = this.#getOtherOwnerForRecords(addedForeignRecords);
              invariant.as(
                RelationError.for(
                  "FORBIDDEN_UNIQUE_UPDATE" /* FORBIDDEN_UNIQUE_UPDATE */,
                  this.#createErrorDetails()
                ),
                otherOwnersAssociatedWithForeignRecord == null,
                'Failed to update a unique relation at "%s": the foreign record is already associated with another owner',
                update.path.join(".")
              );
            }
          }
          const removedForeignRecords = this.foreignCollections.flatMap((foreignCollection) => {
            return foreignCollection.findMany((q) => {
              return q.where((record2) => {
                return this.foreignKeys.has(record2[kPrimaryKey]);
              });
            });
          }).filter((record2) => !nextForeignKeys.has(record2[kPrimaryKey]));
          for (const removedForeignRecord of removedForeignRecords) {
            for (const foreignRelation of this.getRelationsToOwner(
              removedForeignRecord
            )) {
              foreignRelation.foreignKeys.delete(update.prevRecord[kPrimaryKey]);
            }
          }
          this.foreignKeys.clear();
          for (const foreignKey of nextForeignKeys) {
            this.foreignKeys.add(foreignKey);
          }
          for (const foreignRecord of nextForeignRecords) {
            for (const foreignRelation of this.getRelationsToOwner(
              foreignRecord
            )) {
              foreignRelation.foreignKeys.add(update.prevRecord[kPrimaryKey]);
            }
          }
        }
      },
      { signal: abortController.signal }
    );
  }
  #initializeRelation(path, record, initialValues) {
    const logger = this.#logger;
    const serializedPath = path.join(".");
    logger.log("owner record is being created:", {
      record,
      path,
      initialValues,
      ownerCollectionId: this.ownerCollection[kCollectionId],
      foreignCollectionIds: Array.from(this.foreignCollections)
    });
    const relationMap = relationMapOf(record);
    logger.log("owner relation map (before update):", relationMap);
    relationMap.set(serializedPath, this);
    logger.log("owner relation map (after update):", relationMap);
    const initialValue = get(record, path);
    if (initialValue != null) {
      logger.log(
        `found initial value for "${serializedPath}" relation:`,
        initialValue
      );
      const initialForeignRecords = Array.prototype.concat([], get(initialValues, path)).filter(Boolean);
      logger.log("all foreign entries:", initialForeignRecords);
      if (this.options.unique) {
        const foreignRelations = initialForeignRecords.flatMap(
          (foreignRecord) => {
            return this.getRelationsToOwner(foreignRecord);
          }
        );
        const isUnique = foreignRelations.every(
          (relation) => relation.foreignKeys.size === 0
        );
        invariant.as(
          RelationError.for(
            "FORBIDDEN_UNIQUE_CREATE" /* FORBIDDEN_UNIQUE_CREATE */,
            this.#createErrorDetails()
          ),
          isUnique,
          `Failed to create a unique relation at "%s": the foreign record is already associated with another owner`,
          serializedPath
        );
        const otherOwnersAssociatedWithForeignRecord = this.#getOtherOwnerForRecords(initialForeignRecords);
        invariant.as(
          RelationError.for(
            "FORBIDDEN_UNIQUE_CREATE" /* FORBIDDEN_UNIQUE_CREATE */,
            this.#createErrorDetails()
          ),
          otherOwnersAssociatedWithForeignRecord == null,
          'Failed to create a unique relation at "%s": the foreign record is already associated with another owner',
          serializedPath
        );
      }
      for (const foreignRecord of initialForeignRecords) {
        const foreignKey = foreignRecord[kPrimaryKey];
        invariant.as(
          RelationError.for(
            "INVALID_FOREIGN_RECORD" /* INVALID_FOREIGN_RECORD */,
            this.#createErrorDetails()
          ),
          foreignKey != null,
          'Failed to store foreign record reference for "%s" relation: the referenced record (%j) is missing the primary key',
          serializedPath,
          foreignRecord
        );
        if (foreignKey != null) {
          this.foreignKeys.add(foreignKey);
        }
      }
      logger.log("updated foreign keys:", this.foreignKeys);
      unset(record, path);
    }
    definePropertyAtPath(record, path, {
      enumerable: true,
      configurable: true,
      get: () => {
        const returnValue = this.resolve(this.foreignKeys);
        logger.log(
          `resolving "${serializedPath}" for`,
          record,
          "result:",
          returnValue
        );
        if (returnValue !== void 0) {
          return returnValue;
        }
        if (initialValue === null) {
          return null;
        }
        return this.getDefaultValue();
      },
      set: () => {
        throw new RelationError(
          `Failed to set property "${serializedPath}" on collection (${this.ownerCollection[kCollectionId]}): relational properties are read-only and can only be updated via collection updates`,
          "UNEXPECTED_SET_EXPRESSION" /* UNEXPECTED_SET_EXPRESSION */,
          this.#createErrorDetails()
        );
      }
    });
    logger.log(`defined getter over "${serializedPath}"!`);
  }
  /**
   * Returns a list of relations from the given foreign record
   * to the owner collection. Takes `role` into account.
   */
  getRelationsToOwner(foreignRecord) {
    const result = [];
    const isSelfReferencing = this.foreignCollections.some(
      (foreignCollection) => {
        return foreignCollection[kCollectionId] === this.ownerCollection[kCollectionId];
      }
    );
    const ownPath = this.path.join(".");
    for (const [serializedPath, relation] of foreignRecord[kRelationMap]) {
      if (isSelfReferencing && serializedPath === ownPath) {
        continue;
      }
      if (relation.foreignCollections.some((foreignCollection) => {
        return foreignCollection[kCollectionId] === this.ownerCollection[kCollectionId];
      }) && relation.options.role === this.options.role) {
        result.push(relation);
      }
    }
    return result;
  }
  #getOtherOwnerForRecords(foreignRecords) {
    const serializedPath = this.path.join(".");
    return this.ownerCollection.findFirst((q) => {
      return q.where((otherOwner) => {
        const otherOwnerRelations = otherOwner[kRelationMap];
        const otherOwnerRelation = otherOwnerRelations.get(serializedPath);
        return foreignRecords.some((foreignRecord) => {
          return otherOwnerRelation.foreignKeys.has(foreignRecord[kPrimaryKey]);
        });
      });
    });
  }
  #createErrorDetails() {
    return {
      path: this.path,
      ownerCollection: this.ownerCollection,
      foreignCollections: this.foreignCollections,
      options: this.options
    };
  }
};
var One = class extends Relation {
  resolve(foreignKeys) {
    if (foreignKeys.size === 0) {
      return;
    }
    for (const foreignCollection of this.foreignCollections) {
      const record = foreignCollection.findFirst(
        (q) => q.where((record2) => {
          return record2[kPrimaryKey] === foreignKeys.values().next().value;
        })
      );
      if (record !== void 0) {
        return record;
      }
    }
  }
  getDefaultValue() {
    return void 0;
  }
};
var Many = class extends Relation {
  resolve(foreignKeys) {
    if (foreignKeys.size === 0) {
      return;
    }
    return this.foreignCollections.flatMap((foreignCollection) => {
      return foreignCollection.findMany(
        (q) => q.where((record) => {
          return foreignKeys.has(record[kPrimaryKey]);
        })
      );
    });
  }
  getDefaultValue() {
    return [];
  }
};

// @msw/data/src/sort.ts
function sortResults(sortOptions, data) {
  if (sortOptions.orderBy == null) {
    return;
  }
  const criteria = Array.isArray(
    sortOptions.orderBy
  ) ? sortOptions.orderBy.flatMap((entry) => {
    return toDeepEntries(entry);
  }) : toDeepEntries(sortOptions.orderBy);
  data.sort((left, right) => {
    for (const [path, sortDirection] of criteria) {
      const leftValue = get(left, path);
      const rightValue = get(right, path);
      if (leftValue > rightValue) {
        return sortDirection === "asc" ? 1 : -1;
      }
      if (leftValue < rightValue) {
        return sortDirection === "asc" ? -1 : 1;
      }
    }
    return 0;
  });
}

// @msw/data/src/collection.ts
var collectionsCreated = 0;
var kCollectionId = /* @__PURE__ */ Symbol("kCollectionId");
var kPrimaryKey = /* @__PURE__ */ Symbol("kPrimaryKey");
var kRelationMap = /* @__PURE__ */ Symbol("kRelationMap");
var emptyRelationMap = /* @__PURE__ */ new Map();
function relationMapOf(record) {
  if (record[kRelationMap] === emptyRelationMap) {
    record[kRelationMap] = /* @__PURE__ */ new Map();
  }
  return record[kRelationMap];
}
var primaryKeyPrefix = `${crypto.randomUUID()}-`;
var primaryKeysGenerated = 0;
function generatePrimaryKey() {
  return primaryKeyPrefix + (++primaryKeysGenerated).toString(36);
}
function defineOwn(target, key, value) {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true
    });
  } else {
    target[key] = value;
  }
}
var Collection = class {
  constructor(options) {
    this.options = options;
    this[kCollectionId] = this.#generateCollectionId();
    this.#logger = new Logger("Collection").extend(this[kCollectionId]);
    this.#records = [];
    this.hooks = createHooksEmitter();
    this.options.extensions?.forEach((extension) => extension.extend(this));
  }
  options;
  #records;
  #logger;
  [kCollectionId];
  hooks;
  /**
   * Creates a new record with the given values.
   * @param initialValues Initial values for the new record.
   * @return The created record.
   *
   * @example
   * await users.create({ id: 1, name: 'John' })
   */
  async create(initialValues) {
    let logger = this.#logger.extend("create");
    logger.log("initial values:", initialValues);
    const { sanitizedInitialValues, restoreProperties } = this.#sanitizeInitialValues(initialValues);
    const validationResult = await this.options.schema["~standard"].validate(
      sanitizedInitialValues
    );
    if (validationResult.issues) {
      console.error(validationResult.issues);
      throw new OperationError(
        "Failed to create a new record with initial values: does not match the schema. Please see the schema validation errors above.",
        "INVALID_INITIAL_VALUES" /* INVALID_INITIAL_VALUES */
      );
    }
    let record = validationResult.value;
    invariant.as(
      OperationError.for("INVALID_INITIAL_VALUES" /* INVALID_INITIAL_VALUES */),
      typeof record === "object",
      "Failed to create a record with initial values (%j): expected the record to be an object or an array",
      initialValues
    );
    restoreProperties(record);
    const primaryKey = isObject2(initialValues) && initialValues[kPrimaryKey] || generatePrimaryKey();
    Object.defineProperties(record, {
      [kPrimaryKey]: {
        enumerable: false,
        configurable: false,
        value: primaryKey
      },
      [kRelationMap]: {
        enumerable: false,
        configurable: false,
        // Shared until the record gets a relation (see `relationMapOf`).
        writable: true,
        value: emptyRelationMap
      }
    });
    logger = logger.extend(primaryKey);
    logger.log("symbols defined!");
    if (this.hooks.listenerCount("create") > 0) {
      await this.hooks.emitAsPromise(
        new TypedEvent("create", { data: { record, initialValues } })
      );
    }
    logger.log("create hooks done!");
    this.#records.push(record);
    logger.log("create done!", record);
    return record;
  }
  /**
   * Creates multiple records using the given initial values factory.
   * @param count Number of records to create.
   * @param initialValuesFactory Factory function to generate initial values for each record.
   * @return Array of created records.
   *
   * @example
   * await users.createMany(5, (index) => ({ id: index + 1}))
   */
  async createMany(count, initialValuesFactory) {
    const pendingPromises = [];
    for (let i = 0; i < count; i++) {
      pendingPromises.push(this.create(initialValuesFactory(i)));
    }
    return await Promise.all(pendingPromises).catch((error) => {
      throw new OperationError(
        'Failed to execute "createMany" on collection: unexpected error',
        "UNEXPECTED_ERROR" /* UNEXPECTED_ERROR */,
        error
      );
    });
  }
  /**
   * Returns the first record matching the query.
   * If no query is provided, returns the first record in the collection.
   * @example
   * users.findFirst((q) => q.where({ id: 123 }))
   */
  findFirst(predicate, options) {
    if (predicate == null) {
      const firstRecord = this.#records[0];
      invariant.as(
        OperationError.for("STRICT_QUERY_WITHOUT_RESULTS" /* STRICT_QUERY_WITHOUT_RESULTS */),
        options?.strict ? firstRecord != null : true,
        'Failed to execute "findFirst" on collection without a query: the collection is empty'
      );
      return firstRecord;
    }
    const result = this.#query(
      predicate instanceof Query ? predicate : predicate(new Query())
    ).next().value;
    invariant.as(
      OperationError.for("STRICT_QUERY_WITHOUT_RESULTS" /* STRICT_QUERY_WITHOUT_RESULTS */),
      options?.strict ? result != null : true,
      'Failed to execute "findFirst" on collection: no record found matching the query'
    );
    return result;
  }
  /**
   * Returns all records matching the query.
   * If no query is provided, returns all records in the collection.
   * @example
   * users.findMany((q) => q.where({ subscribed: false }))
   */
  findMany(predicate, options) {
    const query = predicate == null ? new Query(() => true) : predicate instanceof Query ? predicate : predicate(new Query());
    const results = Array.from(this.#query(query, options)).filter(
      (result) => !!result
    );
    invariant.as(
      OperationError.for("STRICT_QUERY_WITHOUT_RESULTS" /* STRICT_QUERY_WITHOUT_RESULTS */),
      options?.strict ? results.length > 0 : true,
      'Failed to execute "findMany" on collection: no records found matching the query'
    );
    if (options?.orderBy) {
      sortResults(options, results);
    }
    return results;
  }
  /**
   * Updates the first record matching the query.
   * Returns the updated record.
   * @example
   * await users.update(
   *   (q) => q.where({ name: 'John' }),
   *   {
   *     data(user) {
   *       user.name = 'Johnatan'
   *     }
   *   }
   * )
   */
  async update(predicate, options) {
    const prevRecord = this.findFirst(
      isRecord(predicate) ? new Query((record) => {
        return record[kPrimaryKey] === predicate[kPrimaryKey];
      }) : predicate
    );
    if (prevRecord == null) {
      invariant.as(
        OperationError.for("STRICT_QUERY_WITHOUT_RESULTS" /* STRICT_QUERY_WITHOUT_RESULTS */),
        !options.strict,
        'Failed to execute "update" on collection: no record found matching the query'
      );
      return void 0;
    }
    const nextRecord = await this.#produceRecord(prevRecord, options.data);
    this.#replaceRecord(prevRecord, nextRecord);
    return nextRecord;
  }
  /**
   * Updates all records matching the query.
   * Resolves to the list of updated records.
   * @example
   * await users.updateMany(
   *   (q) => q.where({ subscribed: false }),
   *   {
   *     data(user) {
   *       user.subscribed = true
   *     }
   *   }
   * )
   */
  async updateMany(predicate, options) {
    const prevRecords = this.findMany(predicate);
    if (prevRecords.length === 0) {
      invariant.as(
        OperationError.for("STRICT_QUERY_WITHOUT_RESULTS" /* STRICT_QUERY_WITHOUT_RESULTS */),
        !options.strict,
        'Failed to execute "updateMany" on collection: no records found matching the query'
      );
      return [];
    }
    const nextRecords = [];
    for (const prevRecord of prevRecords) {
      const nextRecord = await this.#produceRecord(prevRecord, options.data);
      this.#replaceRecord(prevRecord, nextRecord);
      nextRecords.push(nextRecord);
    }
    if (options.orderBy) {
      sortResults(options, nextRecords);
    }
    return nextRecords;
  }
  /**
   * Deletes the first record matching the query.
   * @example
   * users.delete((q) => q.where({ id: 123 }))
   */
  delete(predicate, options) {
    if (isRecord(predicate)) {
      this.#deleteRecord(predicate);
      return predicate;
    }
    const record = this.findFirst(predicate);
    if (record == null) {
      invariant.as(
        OperationError.for("STRICT_QUERY_WITHOUT_RESULTS" /* STRICT_QUERY_WITHOUT_RESULTS */),
        !options?.strict,
        'Failed to execute "delete" on collection: no record found matching the query'
      );
      return void 0;
    }
    this.#deleteRecord(record);
    return record;
  }
  /**
   * Deletes all records matching the query.
   * @example
   * users.deleteMany((q) => q.where({ subscribed: false }))
   */
  deleteMany(predicate, options) {
    const records = this.findMany(predicate);
    for (let i = records.length - 1; i >= 0; i--) {
      this.#deleteRecord(records[i]);
    }
    if (records.length === 0) {
      invariant.as(
        OperationError.for("STRICT_QUERY_WITHOUT_RESULTS" /* STRICT_QUERY_WITHOUT_RESULTS */),
        !options?.strict,
        'Failed to execute "deleteMany" on collection: no records found matching the query'
      );
      return [];
    }
    if (options?.orderBy) {
      sortResults(options, records);
    }
    return records;
  }
  /**
   * Returns the total number of records in this collection.
   * @example
   * const users = new Collection({ schema })
   * await users.create({ id: 1, name: 'John' })
   * users.count() // 1
   */
  count() {
    return this.#records.length;
  }
  /**
   * Returns a list of all records from this collection.
   */
  all() {
    return this.#records;
  }
  /**
   * Deletes all the records in this collection.
   */
  clear() {
    for (const record of this.#records) {
      this.#deleteRecord(record);
    }
    this.#records.length = 0;
  }
  /**
   * Defines relations for the records in this collection.
   * @example
   * users.defineRelations(({ many }) => ({
   *   posts: many(posts),
   * }))
   */
  defineRelations(resolver) {
    let logger = this.#logger.extend("defineRelations");
    logger.log("defining relations...");
    const relations = toDeepEntries(
      resolver(createRelationBuilder(this))
    );
    logger.log("relations declaration:", relations);
    const initializeRelations = (record, initialValues = record) => {
      for (const [path, createRelation] of relations) {
        logger.log(`initializing relation for "${path.join(".")}"...`);
        const relation = createRelation();
        relation.initialize(record, path, initialValues);
        logger.log("relation initialized!", relation);
      }
    };
    for (const record of this.#records) {
      initializeRelations(record);
    }
    this.hooks.earlyOn("create", (event) => {
      initializeRelations(event.data.record, event.data.initialValues);
    });
  }
  /**
   * Sanitizes the given object so it can be accepted as the input to Standard Schema validation.
   * This removes getters to prevent potentially infinite object references in self-referencing
   * relations. This also drops the internal symbols but gives a function to restore them back.
   */
  #sanitizeInitialValues(initialValues) {
    const propertiesToRestore = [];
    const visited = /* @__PURE__ */ new Set();
    const sanitize = (value, path = []) => {
      if (Array.isArray(value)) {
        return value.map((value2, index) => sanitize(value2, path.concat(index)));
      }
      if (isObject2(value)) {
        const record = isRecord(value) ? value : void 0;
        const isRevisit = record != null && visited.has(record[kPrimaryKey]);
        if (record && !isRevisit) {
          visited.add(record[kPrimaryKey]);
        }
        const relations = record ? record[kRelationMap] : void 0;
        const sanitized = {};
        for (const key of Reflect.ownKeys(value)) {
          const childValue = value[key];
          const relation = typeof key === "string" ? relations?.get(key) : void 0;
          if (typeof key === "string" && relation == null && (typeof childValue !== "object" || childValue === null)) {
            defineOwn(sanitized, key, childValue);
            continue;
          }
          const childPath = path.concat(key);
          if (typeof key === "symbol") {
            if (key === kPrimaryKey) {
              propertiesToRestore.push({
                path: childPath,
                descriptor: Object.getOwnPropertyDescriptor(value, key)
              });
            }
            defineOwn(sanitized, key, childValue);
            continue;
          }
          if (isRevisit && relation && childValue != null) {
            propertiesToRestore.push({
              path: childPath,
              descriptor: Object.getOwnPropertyDescriptor(value, key)
            });
            defineOwn(sanitized, key, relation.getDefaultValue());
            continue;
          }
          defineOwn(sanitized, key, sanitize(childValue, childPath));
        }
        return sanitized;
      }
      return value;
    };
    const sanitizedInitialValues = sanitize(initialValues);
    return {
      sanitizedInitialValues,
      /**
       * Restores record properties that were stripped off during the sanitization
       * (e.g. relational properties, internal symbols of records given as initial value, etc).
       */
      restoreProperties(record) {
        for (const { path, descriptor } of propertiesToRestore) {
          definePropertyAtPath(record, path, descriptor);
        }
      }
    };
  }
  *#query(query, options = { take: Infinity }) {
    const { take, cursor, skip } = options;
    invariant(
      skip !== void 0 ? Number.isInteger(skip) && skip >= 0 : true,
      'Failed to query the collection: expected the "skip" pagination option to be a number larger or equal to 0 but got %j',
      skip
    );
    let taken = 0;
    let skipped = 0;
    const shouldTake = Math.abs(take ?? Infinity);
    const delta = take && take < 0 ? -1 : 1;
    let start = delta === 1 ? 0 : this.#records.length - 1;
    const end = delta === 1 ? this.#records.length : -1;
    if (cursor != null) {
      const cursorIndex = this.#records.findIndex((record) => {
        return record[kPrimaryKey] === cursor[kPrimaryKey];
      });
      if (cursorIndex === -1) {
        return;
      }
      start = cursorIndex;
    }
    for (let i = start; i !== end; i += delta) {
      const record = this.#records[i];
      if (record != null && query.test(record)) {
        if (skip != null) {
          if (skipped < skip) {
            skipped++;
            continue;
          }
        }
        yield record;
        taken++;
      }
      if (taken >= shouldTake) {
        break;
      }
    }
  }
  /**
   * Returns the index of the given record in this collection.
   * Performs a primary key-based lookup instead of a reference lookup
   * because certain references (like root-level arrays) might become stale
   * after updates, but will retain their primary keys.
   */
  #indexOf(record) {
    return this.#records.findIndex((existingRecord) => {
      return existingRecord[kPrimaryKey] === record[kPrimaryKey];
    });
  }
  /**
   * Replaces the given record with the next version of it.
   */
  #replaceRecord(prevRecord, nextRecord) {
    const index = this.#indexOf(prevRecord);
    invariant(
      index !== -1,
      'Failed to replace record "%j" with "%j": previous record not found',
      prevRecord,
      nextRecord
    );
    this.#records[index] = nextRecord;
  }
  /**
   * Deletes the given record from the collection.
   */
  #deleteRecord(record) {
    const index = this.#indexOf(record);
    if (index !== -1) {
      const deleteEvent = new TypedEvent("delete", {
        data: { deletedRecord: record }
      });
      this.hooks.emit(deleteEvent);
      if (!deleteEvent.defaultPrevented) {
        this.#records.splice(index, 1);
      }
    }
  }
  /**
   * Produces the next version of the given record by applying the `data` changes to it.
   * Re-applies the schema to the end record to ensure validity and apply user-defined transforms.
   */
  async #produceRecord(prevRecord, updateData) {
    const logger = this.#logger.extend("produceRecord");
    logger.log("updating the record with options:", prevRecord, updateData);
    const frozenPrevRecord = cloneWithInternals(
      prevRecord,
      ({ key, descriptor }) => {
        return typeof key === "symbol" && descriptor.get == null;
      }
    );
    invariant(
      isRecord(frozenPrevRecord),
      "Failed to update a record (%j): frozen previous record copy is not a record",
      prevRecord
    );
    const draftInput = this.#buildDraftInput(prevRecord);
    const [maybeNextRecord, patches, inversePatches] = await create(
      draftInput,
      updateData,
      {
        strict: false,
        enablePatches: true
      }
    );
    Object.defineProperties(maybeNextRecord, {
      [kPrimaryKey]: {
        value: prevRecord[kPrimaryKey],
        enumerable: false,
        configurable: false
      },
      [kRelationMap]: {
        value: prevRecord[kRelationMap],
        enumerable: false,
        configurable: false,
        writable: true
      }
    });
    invariant(
      isRecord(maybeNextRecord),
      "Failed to update a record (%j): a record produced by the draft is not a record",
      prevRecord
    );
    const patchesToUndo = [];
    const relationPaths = [];
    for (const serializedPath of prevRecord[kRelationMap].keys()) {
      relationPaths.push(serializedPath.split("."));
    }
    const relationGroups = /* @__PURE__ */ new Map();
    const passthroughIndices = [];
    for (let i = 0; i < patches.length; i++) {
      const patch = patches[i];
      if (!patch) {
        continue;
      }
      const matchingRelationPath = relationPaths.find((relationPath) => {
        if (patch.path.length !== relationPath.length + 1) {
          return false;
        }
        if (!relationPath.every((key, index) => key === patch.path[index])) {
          return false;
        }
        const nextSegment = patch.path[relationPath.length];
        return typeof nextSegment === "number" || nextSegment === "length";
      });
      if (matchingRelationPath) {
        const groupKey = matchingRelationPath.join(".");
        const group = relationGroups.get(groupKey) ?? {
          relationPath: matchingRelationPath,
          patchIndices: []
        };
        group.patchIndices.push(i);
        relationGroups.set(groupKey, group);
      } else {
        passthroughIndices.push(i);
      }
    }
    for (const i of passthroughIndices) {
      const patch = patches[i];
      const updateEvent = new TypedEvent("update", {
        data: {
          prevRecord: frozenPrevRecord,
          nextRecord: maybeNextRecord,
          path: patch.path,
          prevValue: get(prevRecord, patch.path),
          nextValue: patch.value
        }
      });
      this.hooks.emit(updateEvent);
      if (updateEvent.defaultPrevented) {
        const inversePatch = inversePatches[i];
        invariant(
          inversePatch != null,
          "Failed to update a record (%j): missing inverse patch at index %d",
          prevRecord,
          i
        );
        patchesToUndo.push(inversePatch);
      }
    }
    for (const group of relationGroups.values()) {
      const updateEvent = new TypedEvent("update", {
        data: {
          prevRecord: frozenPrevRecord,
          nextRecord: maybeNextRecord,
          path: group.relationPath,
          prevValue: get(prevRecord, group.relationPath),
          nextValue: get(maybeNextRecord, group.relationPath)
        }
      });
      this.hooks.emit(updateEvent);
      if (updateEvent.defaultPrevented) {
        for (const i of group.patchIndices) {
          const inversePatch = inversePatches[i];
          invariant(
            inversePatch != null,
            "Failed to update a record (%j): missing inverse patch at index %d",
            prevRecord,
            i
          );
          patchesToUndo.push(inversePatch);
        }
      }
    }
    const nextRecord = patchesToUndo.length > 0 ? apply(maybeNextRecord, patchesToUndo) : maybeNextRecord;
    logger.log("re-applying the schema...");
    const { sanitizedInitialValues } = this.#sanitizeInitialValues(nextRecord);
    const validationResult = await this.options.schema["~standard"].validate(
      sanitizedInitialValues
    );
    if (validationResult.issues) {
      console.error(validationResult.issues);
      throw new InvariantError(
        "Failed to update record (%j): resulting record does not match the schema",
        frozenPrevRecord
      );
    }
    const finalRecord = validationResult.value;
    logger.log("schema re-applied!");
    const descriptors = Object.getOwnPropertyDescriptors(prevRecord);
    for (const key of Reflect.ownKeys(descriptors)) {
      const descriptor = descriptors[key];
      if (typeof key === "symbol" || typeof descriptor.get === "function") {
        Object.defineProperty(finalRecord, key, descriptor);
      }
    }
    return finalRecord;
  }
  /**
   * Build a draftable copy of the record where relational getters are replaced
   * with data descriptors holding their resolved values. `mutative` cannot
   * observe mutations through getters (https://github.com/unadlib/mutative/issues/157),
   * so a `push` on `draft.posts` is lost unless `posts` is a plain property.
   * Live foreign record references (with their internal symbols) are preserved
   * so downstream hooks can resolve primary keys on the drafted elements.
   */
  #buildDraftInput(record) {
    const clone = cloneWithInternals(
      record,
      ({ key, descriptor }) => typeof key === "symbol" && descriptor.get == null
    );
    for (const serializedPath of record[kRelationMap].keys()) {
      const path = serializedPath.split(".");
      definePropertyAtPath(clone, path, {
        value: get(record, path),
        writable: true,
        enumerable: true,
        configurable: true
      });
    }
    return clone;
  }
  /**
   * Returns a reproducible collection ID number based on the collection
   * creation order. Collection ID has to be reproducible across runtimes
   * to enable synchronization.
   */
  #generateCollectionId() {
    collectionsCreated++;
    const seed = 0;
    const value = collectionsCreated.toString();
    let h1 = 3735928559 ^ seed, h2 = 1103547991 ^ seed;
    for (let i = 0, ch; i < value.length; i++) {
      ch = value.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ h1 >>> 16, 2246822507);
    h1 ^= Math.imul(h2 ^ h2 >>> 13, 3266489909);
    h2 = Math.imul(h2 ^ h2 >>> 16, 2246822507);
    h2 ^= Math.imul(h1 ^ h1 >>> 13, 3266489909);
    return 4294967296 * (2097151 & h2) + (h1 >>> 0);
  }
};
export {
  Collection,
  OperationError,
  Query,
  Relation,
  RelationError,
  RelationErrorCodes
};
