// DOM helpers both halves of the demo page use. Text always goes in as text nodes, never as
// HTML: what the page shows came from tools and model code.

const REDACTED = /\[REDACTED:[a-z_]+\]/g;

/** The element with `id`. */
export const $ = (id) => document.getElementById(id);

/** An element with text content and an optional class. */
export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** Text with every `[REDACTED:family]` marker highlighted. */
export function marked(text) {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const m of text.matchAll(REDACTED)) {
    out.append(text.slice(last, m.index), el('mark', m[0], 'redacted'));
    last = m.index + m[0].length;
  }
  out.append(text.slice(last));
  return out;
}
