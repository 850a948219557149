/* Oriflamme — a small DOM helper shared by the pages (home, game, rules diff):
 * el(tag, attrs, ...children) builds an element; attrs: class, testid (data-testid), dataset, style (set through CSSOM), value and checked (as properties), on<event>
 * handlers, other attributes (false/null/undefined left out, true as an empty attribute). */
(function () {
  "use strict";
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "testid") e.dataset.testid = v;
      else if (k === "dataset") Object.assign(e.dataset, v);
      else if (k === "style") e.style.cssText = v;  // CSSOM, allowed by the pages' CSP (no inline style attribute)
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "value") e.value = v;          // the property: an input's current value
      else if (k === "checked") e.checked = !!v;
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
    return e;
  }
  window.DOM = { el };
})();
