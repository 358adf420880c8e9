// A static server for the release build in dist/ that sends the precompressed copies
// (scripts/compress-dist.mjs: file.br, file.gz) with Content-Encoding when the browser accepts
// them, and lets the browser cache what it fetched (ETag, revalidated on reload). `make
// serve-dist` runs it on http://127.0.0.1:8080; the end-to-end tests (tests/e2e/harness.mjs) use
// it on a free port, so they load the page as a visitor would.
//
//   node scripts/serve-dist.mjs [--port 8080] [--dir dist]
import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.wasm': 'application/wasm',
    '.css': 'text/css',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.json': 'application/json',
};

/** The encodings to try for an Accept-Encoding header, best first. */
function encodings(accept) {
    const a = String(accept ?? '');
    return [['br', '.br'], ['gzip', '.gz']].filter(([name]) => a.includes(name));
}

/** A request handler serving `dir`; `log(request, response)` sees each one (tests count them). */
export function handler(dir, log = () => {}) {
    const root = path.resolve(dir);
    return async (req, res) => {
        const url = new URL(req.url, 'http://127.0.0.1');
        let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
        if (!file.startsWith(root)) {
            res.writeHead(403).end();
            return;
        }
        if (url.pathname.endsWith('/')) file = path.join(file, 'index.html');
        const headers = {
            'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
            vary: 'accept-encoding',
            'cache-control': 'no-cache',
        };
        let body = null;
        for (const [name, ext] of encodings(req.headers['accept-encoding'])) {
            try {
                body = await readFile(file + ext);
                headers['content-encoding'] = name;
                break;
            } catch {
                // not precompressed (a dev build, or an image): the plain file below
            }
        }
        try {
            const meta = await stat(file);
            body ??= await readFile(file);
            headers.etag = `"${meta.size}-${Math.floor(meta.mtimeMs)}-${headers['content-encoding'] ?? 'id'}"`;
        } catch {
            res.writeHead(404).end('not found');
            log(req, 404, 0);
            return;
        }
        if (req.headers['if-none-match'] === headers.etag) {
            res.writeHead(304, headers).end();
            log(req, 304, 0);
            return;
        }
        headers['content-length'] = body.length;
        res.writeHead(200, headers);
        res.end(body);
        log(req, 200, body.length);
    };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const arg = (name, fallback) => {
        const i = process.argv.indexOf(name);
        return i > 0 ? process.argv[i + 1] : fallback;
    };
    const dir = arg('--dir', 'dist');
    const port = Number(arg('--port', 8080));
    try {
        await stat(path.join(dir, 'index.html'));
    } catch {
        console.error(`serve-dist: no ${dir}/index.html: build the page first (make build)`);
        process.exit(1);
    }
    http.createServer(handler(dir)).listen(port, '127.0.0.1', () => {
        console.log(`serving ${dir}/ (precompressed where a .br or .gz copy exists) on http://127.0.0.1:${port}/`);
    });
}
