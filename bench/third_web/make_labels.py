#!/usr/bin/env python3
"""Ground-truth labels of the third benchmark web (data/webs/third/README.md).

Reads the site index that `topicrawl web build --manifest
data/webs/third/third-web.tsv ...` writes (DIR/site-index.tsv: one row per
served HTML page with its URL, host, package and relpath) and writes one
label file per topic:

    url<TAB>relevant<TAB>reason     (sorted by url, every served page once)

Every rule below names a unit of the site's own taxonomy: a Java module,
package or class (javadoc), a Python module or documentation chapter
(Sphinx), a README or manual page (Postfix), a manual chapter (krb5,
GnuTLS). No rule looks at page text, and nothing comes from a crawler.

Usage: make_labels.py SITE_INDEX OUT_DIR
"""
import csv
import os
import re
import sys

# --- http: the HTTP protocol, HTTP clients and servers, web frameworks'
# request handling, WebSocket, URLs and cookies -----------------------------

# java.net classes about URLs, HTTP connections, cookies, proxies and HTTP
# authentication (the package also holds sockets and addresses: those are
# not HTTP).
JAVA_NET_HTTP_CLASSES = {
    "HttpURLConnection", "URL", "URLConnection", "URI", "URLEncoder", "URLDecoder",
    "CookieHandler", "CookieManager", "CookiePolicy", "CookieStore", "HttpCookie",
    "HttpRetryException", "ResponseCache", "CacheRequest", "CacheResponse",
    "SecureCacheResponse", "URLStreamHandler", "URLStreamHandlerFactory",
    "ContentHandler", "ContentHandlerFactory", "Authenticator",
    "Authenticator.RequestorType", "PasswordAuthentication", "ProxySelector",
    "MalformedURLException", "URISyntaxException", "FileNameMap",
}

TORNADO_HTTP_MODULES = {
    "web", "httpserver", "httpclient", "httputil", "http1connection", "websocket",
    "routing", "wsgi", "simple_httpclient", "curl_httpclient",
}

AIOHTTP_HTTP_PAGES = {
    "client", "client_quickstart", "client_advanced", "client_reference", "web",
    "web_quickstart", "web_advanced", "web_reference", "web_lowlevel",
    "websocket_utilities", "http_request_lifecycle", "multipart",
    "multipart_reference", "deployment", "new_router",
}

REQUESTS_HTTP_PAGES = {
    "user/quickstart", "user/advanced", "user/authentication", "api",
    "_modules/requests/api", "_modules/requests/sessions", "_modules/requests/adapters",
    "_modules/requests/models", "_modules/requests/cookies", "_modules/requests/auth",
}

# --- tls: TLS/SSL, X.509 certificates and public-key infrastructure -------

JDK_TLS_PACKAGES = ("java.base/javax/net/ssl/", "java.base/java/security/cert/",
                    "java.base/javax/security/cert/", "java.rmi/javax/rmi/ssl/")
HTTPSERVER_TLS_CLASSES = {"HttpsServer", "HttpsConfigurator", "HttpsParameters",
                          "HttpsExchange"}
CRYPTOGRAPHY_TLS_PAGES = {"x509/index", "x509/tutorial", "x509/reference", "x509/ocsp",
                          "x509/certificate-transparency",
                          "hazmat/primitives/asymmetric/serialization"}
GNUTLS_TLS_PAGES = {"html/gnutls", "api-reference/gnutls-gnutls", "api-reference/gnutls-x509",
                    "api-reference/gnutls-ocsp", "api-reference/gnutls-dtls",
                    "api-reference/gnutls-abstract", "api-reference/gnutls-pkcs12"}
POSTFIX_TLS_PAGES = {"TLS_README", "TLS_LEGACY_README", "FORWARD_SECRECY_README",
                     "tlsmgr.8", "tlsproxy.8", "posttls-finger.1"}
KRB5_TLS_PAGES = {"admin/pkinit", "admin/https"}


def stem(relpath):
    """relpath without .html/.htm."""
    return re.sub(r"\.html?$", "", relpath)


def javadoc_class(relpath):
    """The class name of a javadoc class page or its class-use page, else None."""
    name = os.path.basename(stem(relpath))
    if "-" in name or name in ("index", "package-summary", "package-tree", "package-use"):
        return None
    return name


def http_reason(host, relpath):
    s = stem(relpath)
    if host == "docs.oracle.com":
        if relpath.startswith(("java.net.http/", "jdk.httpserver/")):
            return "jdk module " + relpath.split("/")[0]
        if relpath.startswith("java.base/java/net/") and relpath.count("/") <= 4:
            cls = javadoc_class(relpath)
            if cls in JAVA_NET_HTTP_CLASSES and "/spi/" not in relpath:
                return "java.net HTTP/URL class " + cls
        if re.match(r"java\.base/javax/net/ssl/(class-use/)?HttpsURLConnection\.html$", relpath):
            return "javax.net.ssl.HttpsURLConnection"
        return None
    if host == "www.tornadoweb.org":
        m = re.match(r"(?:_modules/tornado/)?([a-z0-9_]+)$", s)
        if m and m.group(1) in TORNADO_HTTP_MODULES and (s.startswith("_modules/") or "/" not in s):
            return "tornado module " + m.group(1)
        if s in ("http", "webframework"):
            return "tornado chapter " + s
        return None
    if host == "docs.aiohttp.org" and s in AIOHTTP_HTTP_PAGES:
        return "aiohttp chapter " + s
    if host == "requests.readthedocs.io" and s in REQUESTS_HTTP_PAGES:
        return "requests chapter " + s
    if host == "web.mit.edu" and s == "admin/https":
        return "krb5 HTTPS proxy chapter"
    return None


def tls_reason(host, relpath):
    s = stem(relpath)
    if host == "docs.oracle.com":
        for p in JDK_TLS_PACKAGES:
            if relpath.startswith(p):
                return "jdk package " + p.split("/", 1)[1].rstrip("/").replace("/", ".")
        if relpath.startswith("jdk.httpserver/com/sun/net/httpserver/"):
            if javadoc_class(relpath) in HTTPSERVER_TLS_CLASSES:
                return "com.sun.net.httpserver HTTPS class"
        return None
    if host == "cryptography.io" and s in CRYPTOGRAPHY_TLS_PAGES:
        return "cryptography chapter " + s
    if host == "www.gnutls.org" and s in GNUTLS_TLS_PAGES:
        return "gnutls manual part " + s
    if host == "www.postfix.org" and s in POSTFIX_TLS_PAGES:
        return "postfix document " + s
    if host == "web.mit.edu" and s in KRB5_TLS_PAGES:
        return "krb5 chapter " + s
    return None


TOPICS = {"http": http_reason, "tls": tls_reason}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    site_index, out_dir = sys.argv[1:]
    with open(site_index, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if not rows or "url" not in rows[0] or "relpath" not in rows[0]:
        sys.exit(site_index + ": expected a site index with url, host and relpath columns")
    os.makedirs(out_dir, exist_ok=True)
    for topic, reason_of in TOPICS.items():
        labels = sorted((r["url"], reason_of(r["host"], r["relpath"]) or "") for r in rows)
        path = os.path.join(out_dir, "third-%s.tsv" % topic)
        with open(path, "w", encoding="utf-8") as out:
            for url, reason in labels:
                out.write("%s\t%d\t%s\n" % (url, 1 if reason else 0, reason))
        print("%s: %d pages, %d relevant" % (path, len(labels), sum(1 for _, r in labels if r)))


if __name__ == "__main__":
    main()
