// read-excel-file unzips with fflate's asynchronous unzip(), which starts blob: workers for entries over 512 KB;
// the page's CSP refuses those (workers come from 'self' only). build.mjs points read-excel-file's unzip at this
// module instead: the same call, done in place (a sheet is parsed in the page either way).
import { unzipSync } from "fflate";

/** fflate's unzip(data, [opts], cb), answered before it returns. */
export function unzip(data, opts, cb) {
  if (typeof opts === "function") [cb, opts] = [opts, {}];
  let files;
  try {
    files = unzipSync(data, opts);
  } catch (e) {
    cb(e, null);
    return () => {};
  }
  cb(null, files);
  return () => {};
}
