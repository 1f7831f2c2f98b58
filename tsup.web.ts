import type { Options } from 'tsup';

/**
 * The web dossier's assets (src/web/assets): one stylesheet and two scripts for browsers (the live
 * run, the claim flow), minified into dist/web/. The daemon reads them once, names them by content
 * hash and serves them from memory (src/web/assets.ts); `svc resolve --html` inlines the
 * stylesheet. A build of the whole of svc makes them (tsup.config.ts); the tests' global setup
 * (test/support/web-assets-setup.ts) makes them alone when they are missing or older than their
 * sources, so the in-process layer (`npm run test:fast`) needs no build.
 */
export const webAssetsBuild: Options = {
  entry: { 'web/live': 'src/web/assets/live.js', 'web/claim': 'src/web/assets/claim.js', 'web/dossier': 'src/web/assets/dossier.css' },
  format: ['iife'],
  target: ['chrome110', 'firefox110', 'safari16'],
  platform: 'browser',
  minify: true,
  splitting: false,
  sourcemap: false,
  clean: false,
  outExtension: () => ({ js: '.js' }),
};
