# SPDX-License-Identifier: Apache-2.0
#
# profile-negotiate.vcl -- written by contrib/caches/varnish/make-vcl for
# the languages en es (the data file's, in its order); do not edit:
# run make-vcl with your data file's languages instead.
#
# Varnish 7 subroutines (VCL 4.1, vmod std only) that normalize the
# request's Accept-Language to the one language mod_profile would choose,
# and Accept-Encoding to one of five values that make the module choose
# exactly the coding it would have chosen (CONTRACT §4, profile_lang.c,
# profile_enc.c), so that every browser string that selects the same
# answer shares one cache object.  profile.vcl shows where to call them;
# docs/caching.md explains them.
#
# VCL has no loops: each step subroutine reads one element of the field
# and is called 32 times for Accept-Language, 16 for Accept-Encoding.
# A field with more elements than that is left alone and the request is
# passed to the module uncached (return (pass)): still exact.

# Weight in thousandths from the qvalue in X-PL-Q ("" means 1).
sub profile_qvalue {
    if (req.http.X-PL-Q ~ "^(1|$)") {
        set req.http.X-PL-Q = "1000";
    }
    else {
        set req.http.X-PL-Q = std.integer("1" + regsub(req.http.X-PL-Q + "000",
            "^0\.?([0-9]{3})[\s\S]*$", "\1"), 0) - 1000;
    }
}

# One element of Accept-Language (profile_lang_choose()).
sub profile_lang_step {
    if (req.http.X-PL-Rest ~ "[^, \t]") {
        set req.http.X-PL-Pos = std.integer(req.http.X-PL-Pos, 0) + 1;
        set req.http.X-PL-E = regsub(req.http.X-PL-Rest,
            {"^[, \t]*+([^,;]*+(?>;[ \t]*+[^=,; \t]++=(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|(?!")[^,; \t]*+)[ \t]*+(?=[;,]|\z))*+(?>;[ \t]*+(?>[^=,; \t]++=(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|(?!")[^,; \t]*+)[ \t]*+|[^=,; \t]*+))?(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|[^,"])*+)([\s\S]*)\z"}, "\1");
        set req.http.X-PL-Rest = regsub(req.http.X-PL-Rest,
            {"^[, \t]*+([^,;]*+(?>;[ \t]*+[^=,; \t]++=(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|(?!")[^,; \t]*+)[ \t]*+(?=[;,]|\z))*+(?>;[ \t]*+(?>[^=,; \t]++=(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|(?!")[^,; \t]*+)[ \t]*+|[^=,; \t]*+))?(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|[^,"])*+)([\s\S]*)\z"}, "\2");
        if (req.http.X-PL-E ~ {"^(\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*+)[ \t]*+(?:;[ \t]*+[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)[ \t]*+)?\z"}) {
            set req.http.X-PL-R = std.tolower(regsub(req.http.X-PL-E,
                {"^(\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*+)[ \t]*+(?:;[ \t]*+[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)[ \t]*+)?\z"}, "\1"));
            set req.http.X-PL-Q = regsub(req.http.X-PL-E,
                {"^(\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*+)[ \t]*+(?:;[ \t]*+[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)[ \t]*+)?\z"}, "\2");
            call profile_qvalue;
            if (req.http.X-PL-R == "*") {
                if (std.integer(req.http.X-PL-Q, 0) > std.integer(req.http.X-PL-SQ, -1)) {
                    set req.http.X-PL-SQ = req.http.X-PL-Q;
                    set req.http.X-PL-SO = req.http.X-PL-Pos;
                }
            }
            else {
                # en: 2 when the range is "en", 1 when it starts with "en-"
                set req.http.X-PL-How = "0";
                if (req.http.X-PL-R == "en") {
                    set req.http.X-PL-How = "2";
                }
                elsif (req.http.X-PL-R ~ "^en-") {
                    set req.http.X-PL-How = "1";
                }
                if (std.integer(req.http.X-PL-How, 0) > std.integer(req.http.X-PL-1N, 0)
                    || (req.http.X-PL-How == req.http.X-PL-1N && req.http.X-PL-How != "0"
                        && std.integer(req.http.X-PL-Q, 0) > std.integer(req.http.X-PL-1W, -1))) {
                    set req.http.X-PL-1N = req.http.X-PL-How;
                    set req.http.X-PL-1W = req.http.X-PL-Q;
                    set req.http.X-PL-1O = req.http.X-PL-Pos;
                }
                # es: 2 when the range is "es", 1 when it starts with "es-"
                set req.http.X-PL-How = "0";
                if (req.http.X-PL-R == "es") {
                    set req.http.X-PL-How = "2";
                }
                elsif (req.http.X-PL-R ~ "^es-") {
                    set req.http.X-PL-How = "1";
                }
                if (std.integer(req.http.X-PL-How, 0) > std.integer(req.http.X-PL-2N, 0)
                    || (req.http.X-PL-How == req.http.X-PL-2N && req.http.X-PL-How != "0"
                        && std.integer(req.http.X-PL-Q, 0) > std.integer(req.http.X-PL-2W, -1))) {
                    set req.http.X-PL-2N = req.http.X-PL-How;
                    set req.http.X-PL-2W = req.http.X-PL-Q;
                    set req.http.X-PL-2O = req.http.X-PL-Pos;
                }
            }
        }
    }
}

# One element of Accept-Encoding (profile_enc_choose()).
sub profile_enc_step {
    if (req.http.X-PE-Rest ~ "[^, \t]") {
        set req.http.X-PE-E = regsub(req.http.X-PE-Rest,
            {"^[, \t]*+([^,;]*+(?>;[ \t]*+[^=,; \t]++=(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|(?!")[^,; \t]*+)[ \t]*+(?=[;,]|\z))*+(?>;[ \t]*+(?>[^=,; \t]++=(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|(?!")[^,; \t]*+)[ \t]*+|[^=,; \t]*+))?(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|[^,"])*+)([\s\S]*)\z"}, "\1");
        set req.http.X-PE-Rest = regsub(req.http.X-PE-Rest,
            {"^[, \t]*+([^,;]*+(?>;[ \t]*+[^=,; \t]++=(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|(?!")[^,; \t]*+)[ \t]*+(?=[;,]|\z))*+(?>;[ \t]*+(?>[^=,; \t]++=(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|(?!")[^,; \t]*+)[ \t]*+|[^=,; \t]*+))?(?>"(?:\\[\s\S]|[^"\\])*+(?:"|\\?\z)|[^,"])*+)([\s\S]*)\z"}, "\2");
        unset req.http.X-PE-T;
        if (req.http.X-PE-E ~ {"^([^,;]*?)[ \t]*+(?:;[ \t]*+(?:[^=,; \t]{2,}+|[^=,; \tqQ])=(?:"(?:\\[\s\S]|[^"\\])*+"|(?!")[^,; \t]*+)[ \t]*+)*+\z"}) {
            set req.http.X-PE-T = regsub(req.http.X-PE-E, {"^([^,;]*?)[ \t]*+(?:;[ \t]*+(?:[^=,; \t]{2,}+|[^=,; \tqQ])=(?:"(?:\\[\s\S]|[^"\\])*+"|(?!")[^,; \t]*+)[ \t]*+)*+\z"}, "\1");
            set req.http.X-PL-Q = "";
        }
        elsif (req.http.X-PE-E ~ {"^([^,;]*?)[ \t]*+(?:;[ \t]*+(?:[^=,; \t]{2,}+|[^=,; \tqQ])=(?:"(?:\\[\s\S]|[^"\\])*+"|(?!")[^,; \t]*+)[ \t]*+)*+;[ \t]*+[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)[ \t]*+(?:;[ \t]*+(?:[^=,; \t]{2,}+|[^=,; \tqQ])=(?:"(?:\\[\s\S]|[^"\\])*+"|(?!")[^,; \t]*+)[ \t]*+)*+\z"}) {
            set req.http.X-PE-T = regsub(req.http.X-PE-E, {"^([^,;]*?)[ \t]*+(?:;[ \t]*+(?:[^=,; \t]{2,}+|[^=,; \tqQ])=(?:"(?:\\[\s\S]|[^"\\])*+"|(?!")[^,; \t]*+)[ \t]*+)*+;[ \t]*+[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)[ \t]*+(?:;[ \t]*+(?:[^=,; \t]{2,}+|[^=,; \tqQ])=(?:"(?:\\[\s\S]|[^"\\])*+"|(?!")[^,; \t]*+)[ \t]*+)*+\z"}, "\1");
            set req.http.X-PL-Q = regsub(req.http.X-PE-E, {"^([^,;]*?)[ \t]*+(?:;[ \t]*+(?:[^=,; \t]{2,}+|[^=,; \tqQ])=(?:"(?:\\[\s\S]|[^"\\])*+"|(?!")[^,; \t]*+)[ \t]*+)*+;[ \t]*+[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)[ \t]*+(?:;[ \t]*+(?:[^=,; \t]{2,}+|[^=,; \tqQ])=(?:"(?:\\[\s\S]|[^"\\])*+"|(?!")[^,; \t]*+)[ \t]*+)*+\z"}, "\2");
        }
        if (req.http.X-PE-T) {
            call profile_qvalue;
            set req.http.X-PE-T = std.tolower(req.http.X-PE-T);
            if (req.http.X-PE-T == "br") {
                if (std.integer(req.http.X-PL-Q, 0) > std.integer(req.http.X-PE-BR, -1)) {
                    set req.http.X-PE-BR = req.http.X-PL-Q;
                }
            }
            elsif (req.http.X-PE-T == "gzip" || req.http.X-PE-T == "x-gzip") {
                if (std.integer(req.http.X-PL-Q, 0) > std.integer(req.http.X-PE-GZ, -1)) {
                    set req.http.X-PE-GZ = req.http.X-PL-Q;
                }
            }
            elsif (req.http.X-PE-T == "identity") {
                if (std.integer(req.http.X-PL-Q, 0) > std.integer(req.http.X-PE-ID, -1)) {
                    set req.http.X-PE-ID = req.http.X-PL-Q;
                }
            }
            elsif (req.http.X-PE-T == "*") {
                if (std.integer(req.http.X-PL-Q, 0) > std.integer(req.http.X-PE-ST, -1)) {
                    set req.http.X-PE-ST = req.http.X-PL-Q;
                }
            }
        }
    }
}

# Sets req.http.X-Profile-Lang and req.http.X-Profile-AE to the
# normalized values, or leaves both unset when a field has more elements
# than the steps read.  Rewrites nothing else.
sub profile_negotiate {
    # The working fields below are this file's alone: a client's own
    # would change the result.
    call profile_negotiate_clean;
    unset req.http.X-Profile-Lang;
    unset req.http.X-Profile-AE;
    # Several field lines are one list, as httpd reads them.
    std.collect(req.http.Accept-Language, ", ");
    std.collect(req.http.Accept-Encoding, ", ");

    set req.http.X-PL-Rest = "" + req.http.Accept-Language;
    set req.http.X-PL-Pos = "0";
    set req.http.X-PL-1N = "0";
    set req.http.X-PL-2N = "0";
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;
    call profile_lang_step;

    set req.http.X-PE-Rest = "" + req.http.Accept-Encoding;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;
    call profile_enc_step;

    if (req.http.X-PL-Rest !~ "[^, \t]" && req.http.X-PE-Rest !~ "[^, \t]") {
        # "*" gives its weight to the languages no range names; the
        # highest weight wins, ties to the earlier range, then to the
        # data file's order; nothing acceptable: the default.
    if (req.http.X-PL-1N == "0" && std.integer(req.http.X-PL-SQ, -1) >= 0) {
        set req.http.X-PL-1W = req.http.X-PL-SQ;
        set req.http.X-PL-1O = req.http.X-PL-SO;
    }
    if (std.integer(req.http.X-PL-1W, -1) > 0
        && (!req.http.X-PL-Best
            || std.integer(req.http.X-PL-1W, -1) > std.integer(req.http.X-PL-BW, -1)
            || (std.integer(req.http.X-PL-1W, -1) == std.integer(req.http.X-PL-BW, -1)
                && std.integer(req.http.X-PL-1O, 0) < std.integer(req.http.X-PL-BO, 0)))) {
        set req.http.X-PL-Best = "en";
        set req.http.X-PL-BW = req.http.X-PL-1W;
        set req.http.X-PL-BO = req.http.X-PL-1O;
    }
    if (req.http.X-PL-2N == "0" && std.integer(req.http.X-PL-SQ, -1) >= 0) {
        set req.http.X-PL-2W = req.http.X-PL-SQ;
        set req.http.X-PL-2O = req.http.X-PL-SO;
    }
    if (std.integer(req.http.X-PL-2W, -1) > 0
        && (!req.http.X-PL-Best
            || std.integer(req.http.X-PL-2W, -1) > std.integer(req.http.X-PL-BW, -1)
            || (std.integer(req.http.X-PL-2W, -1) == std.integer(req.http.X-PL-BW, -1)
                && std.integer(req.http.X-PL-2O, 0) < std.integer(req.http.X-PL-BO, 0)))) {
        set req.http.X-PL-Best = "es";
        set req.http.X-PL-BW = req.http.X-PL-2W;
        set req.http.X-PL-BO = req.http.X-PL-2O;
    }
        if (!req.http.X-PL-Best) {
            set req.http.X-PL-Best = "en";
        }
        set req.http.X-Profile-Lang = req.http.X-PL-Best;

        # Effective weights: named, else "*", else 0 (identity: -1).
        if (!req.http.X-PE-BR) {
            set req.http.X-PE-BR = std.integer(req.http.X-PE-ST, 0);
        }
        if (!req.http.X-PE-GZ) {
            set req.http.X-PE-GZ = std.integer(req.http.X-PE-ST, 0);
        }
        if (!req.http.X-PE-ID) {
            set req.http.X-PE-ID = std.integer(req.http.X-PE-ST, -1);
        }
        # A coding is served, where the representation has it, when its
        # weight is positive and identity's is not higher.
        set req.http.X-PE-OK = "";
        if (std.integer(req.http.X-PE-BR, 0) > 0
            && std.integer(req.http.X-PE-ID, -1) <= std.integer(req.http.X-PE-BR, 0)) {
            set req.http.X-PE-OK = "br";
        }
        if (std.integer(req.http.X-PE-GZ, 0) > 0
            && std.integer(req.http.X-PE-ID, -1) <= std.integer(req.http.X-PE-GZ, 0)) {
            set req.http.X-PE-OK = req.http.X-PE-OK + "gzip";
        }
        if (req.http.X-PE-OK == "brgzip") {
            if (std.integer(req.http.X-PE-BR, 0) >= std.integer(req.http.X-PE-GZ, 0)) {
                set req.http.X-Profile-AE = "br, gzip";
            }
            else {
                set req.http.X-Profile-AE = "gzip, br;q=0.5";
            }
        }
        elsif (req.http.X-PE-OK == "br") {
            set req.http.X-Profile-AE = "br";
        }
        elsif (req.http.X-PE-OK == "gzip") {
            set req.http.X-Profile-AE = "gzip";
        }
        else {
            set req.http.X-Profile-AE = "identity";
        }
    }
    call profile_negotiate_clean;
}

sub profile_negotiate_clean {
    unset req.http.X-PL-Rest;
    unset req.http.X-PL-Pos;
    unset req.http.X-PL-E;
    unset req.http.X-PL-R;
    unset req.http.X-PL-Q;
    unset req.http.X-PL-How;
    unset req.http.X-PL-SQ;
    unset req.http.X-PL-SO;
    unset req.http.X-PL-Best;
    unset req.http.X-PL-BW;
    unset req.http.X-PL-BO;
    unset req.http.X-PL-1N;
    unset req.http.X-PL-1W;
    unset req.http.X-PL-1O;
    unset req.http.X-PL-2N;
    unset req.http.X-PL-2W;
    unset req.http.X-PL-2O;
    unset req.http.X-PE-Rest;
    unset req.http.X-PE-E;
    unset req.http.X-PE-T;
    unset req.http.X-PE-BR;
    unset req.http.X-PE-GZ;
    unset req.http.X-PE-ID;
    unset req.http.X-PE-ST;
    unset req.http.X-PE-OK;
}
