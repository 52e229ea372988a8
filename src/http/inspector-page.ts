import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { errors } from '../vocabulary/error-catalogue.js';
import type { ApiError } from '../vocabulary/errors.js';

/** What the page step did with a request: answered it, left it to the mock, or refused it. */
type PageOutcome = 'answered' | 'continue' | ApiError;

/** The page step: serves the inspector page and its files, and nothing else. */
export type PageStep = (req: IncomingMessage, res: ServerResponse) => PageOutcome;

export interface InspectorPageOptions {
  /** The admin API's base path, where the page is served: `/__mock` serves it at `/__mock/`. */
  basePath: string;
  /**
   * The folder of the built page (`npm run build` writes it).
   * @default dist/inspector, found from this module in dist/ or in src/
   */
  directory?: string;
}

interface Asset {
  bytes: Buffer;
  type: string;
  etag: string;
  html: boolean;
}

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
};

/** A file name the page may be served from: no folders, no dot files, a known type. */
const ASSET_NAME = /^[A-Za-z0-9_-][\w.-]*\.(html|js|css|svg|png|ico)$/;

/**
 * The page shows what clients sent, bodies included: it runs only its own scripts and styles,
 * talks only to its own origin, and is never framed.
 */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
};

/** Where `npm run build` puts the page: beside dist/http/ when this module runs from dist/, else from src/. */
const BUILT = ['../inspector/', '../../dist/inspector/'].map((path) =>
  fileURLToPath(new URL(path, import.meta.url)),
);

/**
 * Serves the inspector page at the admin API's base path (`GET /__mock/`) and its files
 * (`/__mock/inspector.js`), with no credential (the page asks for one, and the admin API it
 * calls checks it): their content types, an ETag to revalidate with (`no-cache`: a rebuilt
 * page is never stale) and a strict Content-Security-Policy. `/__mock` redirects to `/__mock/`
 * so that the page's relative links work wherever the mock is mounted. Any other request is
 * left to the mock. The files are read once, on the first request for the page.
 * @example createServer((req, res) => page(req, res) === 'continue' && mock(req, res));
 */
export function createInspectorPage(options: InspectorPageOptions): PageStep {
  const { basePath } = options;
  const candidates = options.directory ? [options.directory] : BUILT;
  let assets: ReadonlyMap<string, Asset> | undefined;

  return (req, res) => {
    const method = req.method;
    const url = req.url ?? '/';
    if ((method !== 'GET' && method !== 'HEAD') || !url.startsWith(basePath)) return 'continue';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    if (pathname === basePath) {
      // Relative to `/__mock`, `__mock/` is `/__mock/`, under any prefix the mock is mounted at.
      const last = basePath.slice(basePath.lastIndexOf('/') + 1);
      res.writeHead(308, { Location: `${last}/${q === -1 ? '' : url.slice(q)}` }).end();
      return 'answered';
    }
    if (!pathname.startsWith('/', basePath.length)) return 'continue';
    const name = pathname.slice(basePath.length + 1) || 'index.html';
    if (!ASSET_NAME.test(name)) return 'continue';
    assets ??= readAssets(candidates);
    const asset = assets?.get(name);
    if (!asset) return name === 'index.html' ? errors.inspectorNotBuilt() : 'continue';
    serve(req, res, asset);
    return 'answered';
  };
}

function serve(req: IncomingMessage, res: ServerResponse, asset: Asset): void {
  res.setHeader('ETag', asset.etag);
  res.setHeader('Cache-Control', 'no-cache');
  if (matches(req.headers['if-none-match'], asset.etag)) {
    res.writeHead(304).end();
    return;
  }
  res.writeHead(200, {
    'Content-Type': asset.type,
    'Content-Length': asset.bytes.length,
    'X-Content-Type-Options': 'nosniff',
    ...(asset.html ? PAGE_HEADERS : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : asset.bytes);
}

/** Whether an If-None-Match names this ETag (weakly, as RFC 9110 compares for GET), or is `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/** The page's files of the first folder that has an index.html; undefined when none has (not built yet). */
function readAssets(candidates: readonly string[]): ReadonlyMap<string, Asset> | undefined {
  const directory = candidates.find((dir) =>
    statSync(`${dir}/index.html`, { throwIfNoEntry: false }),
  );
  if (!directory) return undefined;
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(directory)) {
    const extension = ASSET_NAME.exec(name)?.[1];
    if (!extension) continue;
    const bytes = readFileSync(`${directory}/${name}`);
    const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 27);
    assets.set(name, {
      bytes,
      type: TYPES[extension] ?? 'application/octet-stream',
      etag: `"${hash}"`,
      html: extension === 'html',
    });
  }
  return assets;
}
