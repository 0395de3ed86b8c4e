// autocannon ships no types; the benchmarks use a small part of it, typed where it is called.
declare module 'autocannon';
