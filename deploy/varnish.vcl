# The edge in front of the origin (deploy/nginx.conf): Varnish 7 from Debian (`apt-get install varnish`),
# the stand-in for a CDN, run in front of nginx by tests/unit/rebuild.test.ts. Why Varnish: it is what several CDNs run, it
# keeps the origin's Cache-Control as it is (s-maxage, stale-while-revalidate), serves a kept copy while
# the origin fails ("grace"), and takes a PURGE per path from `npm run rebuild` (PURGE_URL), which must carry
# the purge key: the file /etc/varnish/hokimiyat-purge-key (root:varnish, 0640; at least 16 characters, e.g.
# `openssl rand -hex 32`), read once when this VCL is loaded (reload Varnish after changing it). The rebuild
# sends it from PURGE_KEY_FILE. Behind a TLS proxy on this machine every citizen comes from 127.0.0.1, so an
# address alone can never be what allows a purge.
#
# Run it with brotli passed through as the origin made it (Varnish would otherwise ask the origin for
# gzip only):   varnishd -a :6081 -f /etc/varnish/hokimiyat.vcl -s malloc,512m -p http_gzip_support=off
# Set the origin's address below (the origin serves the site to the edge over plain HTTP on a private
# address: docs/deploying.md step 8), and the addresses allowed to purge.
vcl 4.1;

import std;

backend origin {
    .host = "127.0.0.1";
    .port = "8080";
    .connect_timeout = 2s;
    .first_byte_timeout = 15s;
    .between_bytes_timeout = 10s;
    # A failing origin is known within a few seconds, so citizens are served kept copies at once
    # rather than each waiting for a connection that fails.
    .probe = {
        .url = "/robots.txt";
        .interval = 2s;
        .timeout = 1s;
        .window = 3;
        .threshold = 2;
        .initial = 2;
    }
}

# Who may purge, besides holding the key: the machine that runs `npm run rebuild` (add its address if it is not this one).
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    # The headers this edge uses to remember a restart are its own: one a client sends is dropped, so nobody
    # can turn a healthy page into an error page, or a fresh one into a stale one, for himself or for a cache.
    if (req.restarts == 0) {
        unset req.http.X-Edge-Error-Page;
        unset req.http.X-Edge-Origin-Failed;
        unset req.http.X-Edge-State;
        unset req.http.X-Edge-Purge-Key;
    }
    call hokimiyat_normalise_url;
    if (req.method == "PURGE") {
        set req.http.X-Edge-Purge-Key = regsub(std.fileread("/etc/varnish/hokimiyat-purge-key"), "\s+$", "");
        if (client.ip !~ purgers || req.http.X-Edge-Purge-Key !~ "^.{16,}$" || req.http.X-Purge-Key != req.http.X-Edge-Purge-Key) {
            return (synth(403, "Forbidden"));
        }
        return (purge);
    }
    unset req.http.X-Purge-Key;
    # A static site: nothing else is ever needed, and nothing else reaches the origin.
    if (req.method != "GET" && req.method != "HEAD") {
        return (synth(405, "Method Not Allowed"));
    }
    # Nothing the site serves depends on a cookie or credentials: one copy for every citizen.
    unset req.http.Cookie;
    unset req.http.Authorization;
    # One copy per coding the origin has (brotli, gzip, none): the origin's Vary: Accept-Encoding then
    # keeps at most three copies of a path.
    if (req.http.Accept-Encoding ~ "(^|,)\s*br\s*(;\s*q=(1|0\.\d*[1-9]\d*)\s*)?(,|$)") {
        set req.http.Accept-Encoding = "br";
    } elsif (req.http.Accept-Encoding ~ "(^|,)\s*(x-)?gzip\s*(;\s*q=(1|0\.\d*[1-9]\d*)\s*)?(,|$)") {
        set req.http.Accept-Encoding = "gzip";
    } else {
        unset req.http.Accept-Encoding;
    }
    # While the origin answers, a copy past its time is served for at most a minute while a fresh one is
    # fetched (the pages' stale-while-revalidate=60, scripts/serving/cache-rules.ts). When the origin is down,
    # or has just failed this very request (the restart below), any copy within its grace is served: the
    # week of the origin's stale-if-error.
    if (std.healthy(req.backend_hint) && !req.http.X-Edge-Origin-Failed) {
        set req.grace = 60s;
    }
    return (hash);
}

# One copy per page whatever way its address is written, so that a purge or a takedown reaches every way:
# slashes merged, `%2F` and `%27` read as the origin reads them (nginx decodes and merges them too), other
# spellings of a plain address refused, and
# no query: nothing the origin sends depends on one (utm_source=…, fbclid=…; an old list link's `pageNumber`
# is read by the page in the browser). A CDN must be told the same: README "Behind the edge".
sub hokimiyat_normalise_url {
    set req.url = regsuball(req.url, "%2[Ff]", "/");
    # Page paths hold `'`, which a browser may send escaped.
    set req.url = regsuball(req.url, "%27", "'");
    # An escape the origin reads as a plain letter, digit or `-._~`, or a `.` or `..` segment: a browser never
    # sends one (it resolves them first), and each would be a copy of its own that no purge reaches.
    if (req.url ~ "^[^?]*%(2[DdEe]|3[0-9]|4[1-9A-Fa-f]|5[0-9AaFf]|6[1-9A-Fa-f]|7[0-9AaEe])" || req.url ~ "^[^?]*/\.\.?(/|\?|$)") {
        return (synth(400, "Bad Request"));
    }
    set req.url = regsub(req.url, "\?.*$", "");
    set req.url = regsuball(req.url, "/{2,}", "/");
}

sub vcl_hash {
    # /news/5, /news/5/ and /news/5/index.html are one page, kept and purged as one. By path alone, not the
    # host: one instance serves one host (docs/deploying.md step 8), and a purge by path reaches every copy.
    hash_data(regsub(req.url, "^([^?]*?)/(index\.html)?(\?.*)?$", "\1\3"));
    return (lookup);
}

sub vcl_hit {
    if (obj.ttl < 0s) {
        set req.http.X-Edge-State = "stale";
    }
}

sub vcl_backend_response {
    if (beresp.status >= 500 && bereq.is_bgfetch) {
        # A refresh in the background failed: keep serving the copy we have.
        return (abandon);
    }
    if (beresp.status >= 400) {
        # Errors are never kept (the origin also says no-store).
        set beresp.ttl = 0s;
        set beresp.grace = 0s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    # How long a copy may stand in for a failing origin is the origin's stale-if-error (0 without one).
    set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s);
}

sub vcl_deliver {
    # The origin failed a request for which no kept copy was fresh enough: look again, accepting any
    # copy within its grace; then, with none, the site's own error page in the visitor's language.
    if (resp.status >= 500 && !req.http.X-Edge-Origin-Failed) {
        set req.http.X-Edge-Origin-Failed = "1";
        return (restart);
    }
    # BEGIN language error pages: made by `npm run server-config` from the site's tables; do not edit by hand.
    if (resp.status >= 500 && !req.http.X-Edge-Error-Page && req.url !~ "^/((uz-cyrl|ru|en)/)?500") {
        set req.http.X-Edge-Error-Page = "1";
        set req.url = regsub(req.url, "^/((uz-cyrl|ru|en)/)?.*$", "/\1500");
        return (restart);
    }
    # END language error pages
    if (req.http.X-Edge-Error-Page) {
        set resp.status = 503;
        set resp.http.Cache-Control = "no-store";
        set resp.http.Retry-After = "60";
    }
    if (req.http.X-Edge-State == "stale") {
        set resp.http.X-Edge = "stale";
    } elsif (obj.hits > 0) {
        set resp.http.X-Edge = "hit";
    } else {
        set resp.http.X-Edge = "miss";
    }
    unset resp.http.X-Varnish;
}

sub vcl_backend_error {
    # The origin cannot be reached: a plain 503 that vcl_deliver turns into a kept copy or the error page.
    set beresp.http.Cache-Control = "no-store";
    return (deliver);
}
