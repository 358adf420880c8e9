// Writes a gzip (.gz) and a brotli (.br) copy next to every compressible file of a trunk build
// (wasm, js, html, css, svg), so a static server sends them with Content-Encoding instead of the
// raw bytes (scripts/serve-dist.mjs does; nginx's gzip_static and brotli_static do the same).
//
// Run by trunk after a release build (Trunk.toml's post_build hook: TRUNK_STAGING_DIR is the
// folder about to become dist/, TRUNK_PROFILE "release"), or by hand: node
// scripts/compress-dist.mjs [folder] (dist/ by default). A dev build (`make serve`) is left as
// it is: trunk serve sends no compression, and compressing on every rebuild would slow the loop.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

/** What is worth compressing: text and wasm (png, ico are compressed already). */
export const COMPRESSIBLE = ['.wasm', '.js', '.html', '.css', '.svg', '.json'];

/** The gzip bytes of `body`, as the size bar measures them (level 9). */
export function gzip(body) {
    return zlib.gzipSync(body, { level: 9 });
}

/** The brotli bytes of `body` (quality 11, the text mode for text). */
export function brotli(body, text) {
    return zlib.brotliCompressSync(body, {
        params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_MODE]: text ? zlib.constants.BROTLI_MODE_TEXT : zlib.constants.BROTLI_MODE_GENERIC,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
    });
}

/** Compresses every compressible file under `dir`; returns [{ file, raw, gz, br }]. */
export async function compressDir(dir) {
    const out = [];
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
        const ext = path.extname(entry.name);
        if (!entry.isFile() || !COMPRESSIBLE.includes(ext)) continue;
        const file = path.join(entry.parentPath ?? entry.path, entry.name);
        const body = await readFile(file);
        const gz = gzip(body);
        const br = brotli(body, ext !== '.wasm');
        await writeFile(`${file}.gz`, gz);
        await writeFile(`${file}.br`, br);
        out.push({ file: path.relative(dir, file), raw: body.length, gz: gz.length, br: br.length });
    }
    return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const staging = process.env.TRUNK_STAGING_DIR;
    if (staging && process.env.TRUNK_PROFILE !== 'release') process.exit(0);
    const dir = process.argv[2] ?? staging ?? 'dist';
    try {
        for (const f of await compressDir(dir)) {
            if (f.file.endsWith('.wasm')) {
                console.log(`${f.file}: ${f.raw} bytes, gzip ${f.gz}, brotli ${f.br}`);
            }
        }
    } catch (e) {
        console.error(`compress-dist: cannot compress ${dir}: ${e.message}`);
        process.exit(1);
    }
}
