// viewer.js is plain browser code, imported only as an embedded file (`with { type: "file" }`): its
// path.
declare const path: string;
export default path;
