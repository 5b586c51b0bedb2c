// The types of vendor/msw-data/index.js: those of @msw/data at the version it was built from (the
// patch changes no exported type). The kit's published declarations do not refer to them.
export * from '@msw/data';
