// SPDX-License-Identifier: Apache-2.0
//
// profile_negotiate.js -- nginx (njs, Debian's libnginx-mod-http-js) in
// front of mod_profile: computes the one language mod_profile would
// choose for the client's Accept-Language, and one of five
// Accept-Encoding values that make the module choose exactly the coding
// it would have chosen.  profile-cache.conf sends both to the module in
// place of the client's fields and puts them in the cache key, so every
// browser string that selects the same answer shares one cache entry.
//
// The rules are mod_profile's own (CONTRACT §4, profile_lang.c,
// profile_enc.c, profile_hdr.c), ported line by line; see
// docs/caching.md.  The languages are the data file's, in its order,
// from the variable $profile_languages ("en es" when unset).

var COMMA = 44, SEMI = 59, EQ = 61, QUOTE = 34, BSLASH = 92;

// ASCII case folding, as httpd's apr_cstr_casecmpn() compares.
function lower(s) {
    return s.replace(/[A-Z]+/g, function (m) {
        return m.toLowerCase();
    });
}

function ows(c) {
    return c === 32 || c === 9;
}

// A token or a quoted-string starting at p: [end, unterminated].
function skipValue(s, p) {
    var n = s.length;
    if (p < n && s.charCodeAt(p) === QUOTE) {
        p++;
        while (p < n && s.charCodeAt(p) !== QUOTE) {
            if (s.charCodeAt(p) === BSLASH && p + 1 < n) {
                p++;
            }
            p++;
        }
        if (p >= n) {
            return [p, true];
        }
        return [p + 1, false];
    }
    while (p < n) {
        var c = s.charCodeAt(p);
        if (c === COMMA || c === SEMI || ows(c)) {
            break;
        }
        p++;
    }
    return [p, false];
}

// profile_hdr_qvalue(): weight in thousandths, or -1 when malformed.
function qvalue(v) {
    var n = v.length, q, scale = 100, i, c;
    if (n === 0 || (v.charAt(0) !== '0' && v.charAt(0) !== '1')) {
        return -1;
    }
    q = (v.charCodeAt(0) - 48) * 1000;
    if (n === 1) {
        return q;
    }
    if (v.charAt(1) !== '.' || n > 5) {
        return -1;
    }
    for (i = 2; i < n; i++) {
        c = v.charCodeAt(i);
        if (c < 48 || c > 57) {
            return -1;
        }
        q += (c - 48) * scale;
        scale = scale / 10;
    }
    return q > 1000 ? -1 : q;
}

// profile_hdr_next(): the elements of a comma-separated list with
// weights, each {token, q, hasParams, malformed}.
function elements(s) {
    var out = [], n = s.length, p = 0;
    for (;;) {
        while (p < n
               && (s.charCodeAt(p) === COMMA || ows(s.charCodeAt(p)))) {
            p++;
        }
        if (p >= n) {
            return out;
        }
        var e = {q: 1000, hasParams: false, malformed: false};
        var start = p, stop, seenQ = false, r;
        while (p < n && s.charCodeAt(p) !== COMMA
               && s.charCodeAt(p) !== SEMI) {
            p++;
        }
        stop = p;
        while (stop > start && ows(s.charCodeAt(stop - 1))) {
            stop--;
        }
        e.token = s.substring(start, stop);
        while (p < n && s.charCodeAt(p) === SEMI) {
            p++;
            while (p < n && ows(s.charCodeAt(p))) {
                p++;
            }
            var name = p, c;
            while (p < n) {
                c = s.charCodeAt(p);
                if (c === EQ || c === COMMA || c === SEMI || ows(c)) {
                    break;
                }
                p++;
            }
            var nameLen = p - name;
            if (p >= n || s.charCodeAt(p) !== EQ || nameLen === 0) {
                e.malformed = true;
                break;
            }
            var value = ++p;
            r = skipValue(s, p);
            p = r[0];
            if (r[1]) {
                e.malformed = true;
            }
            var nm = s.substring(name, name + nameLen);
            if (nm === 'q' || nm === 'Q') {
                var q = qvalue(s.substring(value, p));
                if (q < 0 || seenQ) {
                    e.malformed = true;
                } else {
                    e.q = q;
                }
                seenQ = true;
            } else {
                e.hasParams = true;
            }
            while (p < n && ows(s.charCodeAt(p))) {
                p++;
            }
            if (p < n && s.charCodeAt(p) !== SEMI
                && s.charCodeAt(p) !== COMMA) {
                e.malformed = true;
                break;
            }
        }
        // Resynchronise on the next element, quoted strings whole.
        while (p < n && s.charCodeAt(p) !== COMMA) {
            if (s.charCodeAt(p) === QUOTE) {
                r = skipValue(s, p);
                p = r[0];
                if (r[1]) {
                    e.malformed = true;
                }
            } else {
                p++;
            }
        }
        out.push(e);
    }
}

// A language-range: 1*8ALPHA *("-" 1*8alphanum), or "*".
var RANGE = /^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$/;

// profile_lang_choose(): the index of the chosen language.
function chooseLanguage(header, langs) {
    var weight = [], order = [], named = [], starQ = -1, starOrder = 0;
    var i, pos, els, best = -1;
    for (i = 0; i < langs.length; i++) {
        weight.push(-1);
        order.push(0);
        named.push(0);
    }
    if (header === undefined || header === null) {
        return 0;
    }
    els = elements(header);
    for (pos = 1; pos <= els.length; pos++) {
        var e = els[pos - 1];
        if (e.malformed || e.hasParams || !RANGE.test(e.token)) {
            continue;
        }
        if (e.token === '*') {
            if (e.q > starQ) {
                starQ = e.q;
                starOrder = pos;
            }
            continue;
        }
        var t = lower(e.token);
        for (i = 0; i < langs.length; i++) {
            var l = lower(langs[i]), how = 0;
            if (t === l) {
                how = 2;
            } else if (t.substring(0, l.length + 1) === l + '-') {
                how = 1;
            }
            if (how > named[i] || (how === named[i] && how > 0
                                   && e.q > weight[i])) {
                named[i] = how;
                weight[i] = e.q;
                order[i] = pos;
            }
        }
    }
    for (i = 0; i < langs.length; i++) {
        if (!named[i] && starQ >= 0) {
            weight[i] = starQ;
            order[i] = starOrder;
        }
    }
    for (i = 0; i < langs.length; i++) {
        if (weight[i] <= 0) {
            continue;
        }
        if (best < 0 || weight[i] > weight[best]
            || (weight[i] === weight[best] && order[i] < order[best])) {
            best = i;
        }
    }
    return best < 0 ? 0 : best;
}

// profile_enc_choose() for every set of codings a representation may
// have (identity alone, +gzip, +br, +both), folded into one of five
// Accept-Encoding values that make the module choose the same.
function normalizeEncoding(header) {
    var q = {br: -1, gzip: -1, identity: -1}, star = -1, els, i;
    if (header === undefined || header === null) {
        return 'identity';
    }
    els = elements(header);
    for (i = 0; i < els.length; i++) {
        var e = els[i], t, slot = null;
        if (e.malformed) {
            continue;
        }
        t = lower(e.token);
        if (t === 'br') {
            slot = 'br';
        } else if (t === 'gzip' || t === 'x-gzip') {
            slot = 'gzip';
        } else if (t === 'identity') {
            slot = 'identity';
        }
        if (slot !== null) {
            if (e.q > q[slot]) {
                q[slot] = e.q;
            }
        } else if (t === '*' && e.q > star) {
            star = e.q;
        }
    }
    function eff(w, unnamed) {
        return w >= 0 ? w : star >= 0 ? star : unnamed;
    }
    var wb = eff(q.br, 0), wg = eff(q.gzip, 0), wi = eff(q.identity, -1);
    // A coding is served, when the representation has it, if its weight
    // is positive and identity's is not higher.
    var brOk = wb > 0 && !(wi > wb), gzOk = wg > 0 && !(wi > wg);
    if (brOk && gzOk) {
        return wb >= wg ? 'br, gzip' : 'gzip, br;q=0.5';
    }
    return brOk ? 'br' : gzOk ? 'gzip' : 'identity';
}

// The raw field as httpd sees it: several lines joined with ", ".
function field(r, name) {
    var lines = [], h = r.rawHeadersIn, i;
    for (i = 0; i < h.length; i++) {
        if (lower(h[i][0]) === name) {
            lines.push(h[i][1]);
        }
    }
    return lines.length ? lines.join(', ') : undefined;
}

function languages(r) {
    var v = r.variables.profile_languages;
    var list = (v ? v : 'en es').split(/[\s,]+/).filter(function (x) {
        return x.length > 0;
    });
    return list.length ? list : ['en', 'es'];
}

function lang(r) {
    var langs = languages(r);
    return langs[chooseLanguage(field(r, 'accept-language'), langs)];
}

function encoding(r) {
    return normalizeEncoding(field(r, 'accept-encoding'));
}

export default {lang: lang, encoding: encoding};
