// SPDX-License-Identifier: Apache-2.0
// Building elements from the API's text: textContent only, never HTML,
// and links only for the schemes a visitor can safely follow.

const SAFE_SCHEMES = new Set(["https:", "http:", "mailto:", "tel:"]);

/** The URL as an href when it is absolute and its scheme is https, http,
 *  mailto or tel; null otherwise (javascript:, data:, relative URLs,
 *  which would resolve against this page, and anything unparsable).  The
 *  module's validator refuses other schemes too; this is the page's own
 *  check. */
export function safeHref(url) {
    if (typeof url !== "string" || url.trim() === "") {
        return null;
    }
    let parsed;
    try {
        parsed = new URL(url.trim());
    }
    catch {
        return null;
    }
    return SAFE_SCHEMES.has(parsed.protocol) ? parsed.href : null;
}

/** h("p", {class: "x"}, "text", child...): an element whose text
 *  children become text nodes.  Attributes are set with setAttribute;
 *  null and false values are skipped. */
export function h(tag, attrs = {}, ...children) {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
        if (value === null || value === undefined || value === false) {
            continue;
        }
        el.setAttribute(name, value === true ? "" : String(value));
    }
    append(el, children);
    return el;
}

function append(el, children) {
    for (const child of children) {
        if (child === null || child === undefined || child === false) {
            continue;
        }
        if (Array.isArray(child)) {
            append(el, child);
        }
        else if (child instanceof Node) {
            el.appendChild(child);
        }
        else {
            el.appendChild(document.createTextNode(String(child)));
        }
    }
}

/** A link when the URL is safe, the text alone otherwise. */
export function link(url, text, attrs = {}) {
    const href = safeHref(url);
    const label = text || url || "";
    if (!href) {
        return h("span", {class: "nolink"}, label);
    }
    const external = /^https?:/.test(href);
    return h("a", {href, rel: external ? "noopener noreferrer" : null, ...attrs},
             label);
}

export function replaceChildren(el, ...children) {
    el.replaceChildren();
    append(el, children);
}
