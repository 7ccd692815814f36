// The part of autocannon's API bench/http-floor.ts uses (the package ships no types). Named with `_` so that run.ts skips it.
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
  }
  interface Result {
    '2xx': number;
    non2xx: number;
    errors: number;
    /** seconds the run lasted */
    duration: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
