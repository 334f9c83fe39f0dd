-- SPDX-License-Identifier: Apache-2.0
--
-- profile_negotiate.lua -- Apache Traffic Server (tslua remap plugin) in
-- front of mod_profile: rewrites the client's Accept-Language to the one
-- language mod_profile would choose, and Accept-Encoding to one of five
-- forms that make the module choose exactly the coding it would have
-- chosen, and adds both to the cache key.  So every browser string that
-- selects the same answer shares one cache entry, and the module, which
-- receives the rewritten fields, answers what the cache key says.
--
-- The rules are mod_profile's own (CONTRACT §4, profile_lang.c,
-- profile_enc.c, profile_hdr.c), ported line by line; see
-- docs/caching.md.  remap.config:
--
--   map http://cache.example/api/v1/ http://10.0.0.11/api/v1/ \
--       @plugin=tslua.so @pparam=/etc/trafficserver/profile_negotiate.lua \
--       @pparam=en @pparam=es
--
-- The parameters after the script are the data file's "languages", in
-- its order (the first is the default); none means "en es".

local LANGS = {}

function __init__(argtb)
    -- argtb[0] is the script; the languages follow.
    for i = 1, #argtb do
        LANGS[#LANGS + 1] = argtb[i]
    end
    if #LANGS == 0 then
        LANGS = {'en', 'es'}
    end
    return 0
end

local COMMA, SEMI, EQ, QUOTE, BSLASH = 44, 59, 61, 34, 92

local function ows(c)
    return c == 32 or c == 9
end

-- skip_value(): a token or a quoted-string starting at p; returns the
-- index after it and whether it broke the grammar (unterminated quote).
local function skip_value(s, p, n)
    if p <= n and s:byte(p) == QUOTE then
        p = p + 1
        while p <= n and s:byte(p) ~= QUOTE do
            if s:byte(p) == BSLASH and p + 1 <= n then
                p = p + 1
            end
            p = p + 1
        end
        if p > n then
            return p, true
        end
        return p + 1, false
    end
    while p <= n do
        local c = s:byte(p)
        if c == COMMA or c == SEMI or ows(c) then
            break
        end
        p = p + 1
    end
    return p, false
end

-- profile_hdr_qvalue(): weight in thousandths, or -1 when malformed.
local function qvalue(v)
    local n = #v
    local c1 = v:byte(1)
    if n == 0 or (c1 ~= 48 and c1 ~= 49) then
        return -1
    end
    local q = (c1 - 48) * 1000
    if n == 1 then
        return q
    end
    if v:byte(2) ~= 46 or n > 5 then
        return -1
    end
    local scale = 100
    for i = 3, n do
        local c = v:byte(i)
        if c < 48 or c > 57 then
            return -1
        end
        q = q + (c - 48) * scale
        scale = math.floor(scale / 10)
    end
    if q > 1000 then
        return -1
    end
    return q
end

-- profile_hdr_next(): the elements of a comma-separated list with
-- weights, each {token, q, has_params, malformed}.
local function elements(s)
    local out = {}
    local n = #s
    local p = 1
    while true do
        while p <= n and (s:byte(p) == COMMA or ows(s:byte(p))) do
            p = p + 1
        end
        if p > n then
            return out
        end
        local e = {q = 1000, has_params = false, malformed = false}
        local start = p
        while p <= n and s:byte(p) ~= COMMA and s:byte(p) ~= SEMI do
            p = p + 1
        end
        local stop = p
        while stop > start and ows(s:byte(stop - 1)) do
            stop = stop - 1
        end
        e.token = s:sub(start, stop - 1)
        local seen_q = false
        while p <= n and s:byte(p) == SEMI do
            p = p + 1
            while p <= n and ows(s:byte(p)) do
                p = p + 1
            end
            local name = p
            while p <= n do
                local c = s:byte(p)
                if c == EQ or c == COMMA or c == SEMI or ows(c) then
                    break
                end
                p = p + 1
            end
            local name_len = p - name
            if p > n or s:byte(p) ~= EQ or name_len == 0 then
                e.malformed = true
                break
            end
            p = p + 1
            local value = p
            local bad
            p, bad = skip_value(s, p, n)
            if bad then
                e.malformed = true
            end
            local nm = s:sub(name, name + name_len - 1)
            if nm == 'q' or nm == 'Q' then
                local q = qvalue(s:sub(value, p - 1))
                if q < 0 or seen_q then
                    e.malformed = true
                else
                    e.q = q
                end
                seen_q = true
            else
                e.has_params = true
            end
            while p <= n and ows(s:byte(p)) do
                p = p + 1
            end
            if p <= n and s:byte(p) ~= SEMI and s:byte(p) ~= COMMA then
                e.malformed = true
                break
            end
        end
        -- Resynchronise on the next element, quoted strings whole.
        while p <= n and s:byte(p) ~= COMMA do
            if s:byte(p) == QUOTE then
                local bad
                p, bad = skip_value(s, p, n)
                if bad then
                    e.malformed = true
                end
            else
                p = p + 1
            end
        end
        out[#out + 1] = e
    end
end

-- A language-range: 1*8ALPHA *("-" 1*8alphanum), or "*".
local function range_valid(t)
    if t == '*' then
        return true
    end
    local first = true
    for sub in (t .. '-'):gmatch('([^-]*)-') do
        if #sub == 0 or #sub > 8
            or sub:find(first and '[^%a]' or '[^%w]') then
            return false
        end
        first = false
    end
    return #t > 0
end

-- profile_lang_choose(): the index of the chosen language.
local function choose_language(header, langs)
    local weight, order, named = {}, {}, {}
    local star_q, star_order = -1, 0
    for i = 1, #langs do
        weight[i], order[i], named[i] = -1, 0, 0
    end
    if header == nil then
        return 1
    end
    for pos, e in ipairs(elements(header)) do
        if not e.malformed and not e.has_params and range_valid(e.token) then
            if e.token == '*' then
                if e.q > star_q then
                    star_q, star_order = e.q, pos
                end
            else
                local t = e.token:lower()
                for i = 1, #langs do
                    local l = langs[i]:lower()
                    local how = 0
                    if t == l then
                        how = 2
                    elseif t:sub(1, #l + 1) == l .. '-' then
                        how = 1
                    end
                    if how > named[i] or (how == named[i] and how > 0
                                          and e.q > weight[i]) then
                        named[i], weight[i], order[i] = how, e.q, pos
                    end
                end
            end
        end
    end
    for i = 1, #langs do
        if named[i] == 0 and star_q >= 0 then
            weight[i], order[i] = star_q, star_order
        end
    end
    local best = nil
    for i = 1, #langs do
        if weight[i] > 0 and (best == nil or weight[i] > weight[best]
               or (weight[i] == weight[best] and order[i] < order[best])) then
            best = i
        end
    end
    return best or 1
end

-- profile_enc_choose() for every set of codings a representation may
-- have (identity alone, +gzip, +br, +both), folded into one of five
-- Accept-Encoding values that make the module choose the same.
local function normalize_encoding(header)
    local q = {br = -1, gzip = -1, identity = -1}
    local star = -1
    if header == nil then
        return 'identity'
    end
    for _, e in ipairs(elements(header)) do
        if not e.malformed then
            local t = e.token:lower()
            local slot = nil
            if t == 'br' then
                slot = 'br'
            elseif t == 'gzip' or t == 'x-gzip' then
                slot = 'gzip'
            elseif t == 'identity' then
                slot = 'identity'
            end
            if slot then
                if e.q > q[slot] then
                    q[slot] = e.q
                end
            elseif t == '*' and e.q > star then
                star = e.q
            end
        end
    end
    local function eff(w, unnamed)
        if w >= 0 then
            return w
        end
        if star >= 0 then
            return star
        end
        return unnamed
    end
    local wb, wg = eff(q.br, 0), eff(q.gzip, 0)
    local wi = eff(q.identity, -1)
    -- A coding is served, when the representation has it, if its weight
    -- is positive and identity's is not higher.
    local br_ok = wb > 0 and not (wi > wb)
    local gz_ok = wg > 0 and not (wi > wg)
    if br_ok and gz_ok then
        if wb >= wg then
            return 'br, gzip'
        end
        return 'gzip, br;q=0.5'
    elseif br_ok then
        return 'br'
    elseif gz_ok then
        return 'gzip'
    end
    return 'identity'
end

-- ATS builds the 304 it sends a client from the stored answer with only
-- the fields RFC 9111 names (ETag, Cache-Control, Expires, Vary, Date):
-- the module's 304 also carries these, and a page that sent its own
-- If-None-Match cannot read a 304 without Access-Control-Allow-Origin.
local KEEP_ON_304 = {
    'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers',
    'Content-Language', 'Content-Encoding', 'Last-Modified',
    'X-Content-Type-Options',
}

local function cache_lookup()
    local status = ts.http.get_cache_lookup_status()
    if status == TS_LUA_CACHE_LOOKUP_HIT_FRESH
        or status == TS_LUA_CACHE_LOOKUP_HIT_STALE then
        local stored = {}
        for _, name in ipairs(KEEP_ON_304) do
            stored[name] = ts.cached_response.header[name]
        end
        ts.ctx['stored'] = stored
    end
end

local function send_response()
    local stored = ts.ctx['stored']
    if stored and ts.client_response.get_status() == 304 then
        for _, name in ipairs(KEEP_ON_304) do
            if stored[name] and not ts.client_response.header[name] then
                ts.client_response.header[name] = stored[name]
            end
        end
    end
end

function do_remap()
    local lang = LANGS[choose_language(
        ts.client_request.header['Accept-Language'], LANGS)]
    local enc = normalize_encoding(ts.client_request.header['Accept-Encoding'])
    ts.client_request.header['Accept-Language'] = lang
    ts.client_request.header['Accept-Encoding'] = enc
    -- One cache entry per URL, language and coding class (Vary: Origin,
    -- with a list of origins, is still handled by ATS's alternates).
    local args = ts.client_request.get_uri_args()
    ts.http.set_cache_url(ts.client_request.get_url()
                          .. ((args and args ~= '') and '&' or '?')
                          .. 'profile-negotiated=' .. lang .. '.'
                          .. enc:gsub('[^%w]', ''))
    ts.hook(TS_LUA_HOOK_CACHE_LOOKUP_COMPLETE, cache_lookup)
    ts.hook(TS_LUA_HOOK_SEND_RESPONSE_HDR, send_response)
    return 0
end
