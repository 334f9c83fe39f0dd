# SPDX-License-Identifier: Apache-2.0
#
# profile.vcl -- Varnish 7 in front of mod_profile, with Accept-Language
# and Accept-Encoding normalized to what the module negotiates
# (docs/caching.md).  Merge it into your own VCL: the subroutines below
# add to Varnish's built-in ones; profile-negotiate.vcl (made by make-vcl
# for the data file's languages) must be on vcl_path.
#
#   varnishd -a :6081 -f /etc/varnish/profile.vcl -s malloc,256m
vcl 4.1;

import std;
include "profile-negotiate.vcl";

backend profile_api {
    .host = "127.0.0.1";
    .port = "8081";
}

sub vcl_recv {
    # The API's base (<Location /api/v1>).
    if (req.url ~ "^/api/v1(/|\?|$)") {
        set req.backend_hint = profile_api;
        call profile_negotiate;
        if (!req.http.X-Profile-Lang) {
            # A field with more elements than the VCL reads: the module
            # gets it as it came, and the answer is not cached.
            return (pass);
        }
        # The module's answer now depends on these values alone.
        set req.http.Accept-Language = req.http.X-Profile-Lang;
        set req.http.Accept-Encoding = req.http.X-Profile-AE;
        # The API takes no credentials (CONTRACT §6) and never reads
        # cookies: a site's cookie must not make every answer a pass.
        unset req.http.Cookie;
    }
}

sub vcl_hash {
    # Hashed explicitly, because with http_gzip_support on (the default)
    # Varnish rewrites Accept-Encoding to "gzip" after vcl_recv, which
    # would put br and gzip answers in one object's place.  Vary (which
    # still names Origin when ProfileCORSOrigins is a list) does the rest.
    if (req.http.X-Profile-Lang) {
        hash_data(req.http.X-Profile-Lang);
        hash_data(req.http.X-Profile-AE);
    }
}

sub vcl_backend_fetch {
    # What the module sees is what the object is hashed under.
    if (bereq.http.X-Profile-Lang) {
        set bereq.http.Accept-Language = bereq.http.X-Profile-Lang;
        set bereq.http.Accept-Encoding = bereq.http.X-Profile-AE;
        unset bereq.http.X-Profile-Lang;
        unset bereq.http.X-Profile-AE;
    }
}

sub vcl_backend_response {
    if (bereq.url ~ "^/api/v1(/|\?|$)") {
        # max-age is the module's promise (ProfileMaxAge): no stale
        # answer after it (Varnish's default grace serves one for 10 s),
        # but keep the object so that Varnish revalidates it with
        # If-None-Match and a 304 from the module refreshes it.
        set beresp.grace = 0s;
        set beresp.keep = 1d;
    }
}
