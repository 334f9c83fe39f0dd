// SPDX-License-Identifier: Apache-2.0
// Reading the API: one GET per route, the answer's language, its
// problem body on errors, and what the visitor's state depends on (503
// with Retry-After, the server not reachable).

/** Thrown when the browser could not reach the server at all. */
export class ApiDown extends Error {
    constructor(cause) {
        super("API unreachable");
        this.name = "ApiDown";
        this.cause = cause;
    }
}

/**
 * api.get(route, {lang, params, signal}) -> {status, ok, body, problem,
 * lang, lastModified, retryAfter}.
 *
 * base: "/api/v1", or "/{lang}/api/v1" for one base per language (no
 * Accept-Language is sent then: the URL names the language, so the
 * browser keeps both languages cached).  lang: the visitor's choice, or
 * null to let the browser's own Accept-Language go out unchanged.
 * Empty filter values are never sent (the API answers them 400).
 */
export function createApi(base) {
    const perLanguage = base.includes("{lang}");

    function url(route, lang, params) {
        const root = perLanguage ? base.replace("{lang}", encodeURIComponent(lang || "en"))
                                 : base;
        const query = new URLSearchParams();
        for (const [k, v] of Object.entries(params || {})) {
            const value = typeof v === "string" ? v.trim() : "";
            if (value !== "") {
                query.set(k, value);
            }
        }
        const qs = query.toString();
        return root.replace(/\/+$/, "") + route + (qs ? "?" + qs : "");
    }

    async function get(route, {lang = null, params = null, signal} = {}) {
        const headers = {Accept: "application/json"};
        if (lang && !perLanguage) {
            headers["Accept-Language"] = lang;
        }
        let response;
        try {
            response = await fetch(url(route, lang, params), {headers, signal});
        }
        catch (err) {
            if (err && err.name === "AbortError") {
                throw err;
            }
            throw new ApiDown(err);
        }
        let body = null;
        const type = response.headers.get("Content-Type") || "";
        if (/json/.test(type)) {
            try {
                body = await response.json();
            }
            catch (err) {
                if (err && err.name === "AbortError") {
                    throw err;
                }
                body = null;
            }
        }
        const retry = parseInt(response.headers.get("Retry-After") || "", 10);
        return {
            status: response.status,
            ok: response.ok,
            body: response.ok ? body : null,
            problem: response.ok ? null : (body || {status: response.status}),
            lang: response.headers.get("Content-Language"),
            lastModified: response.headers.get("Last-Modified"),
            retryAfter: Number.isFinite(retry) && retry >= 0 ? retry : null,
        };
    }

    return {get, perLanguage, url};
}
