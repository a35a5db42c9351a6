// s3rver (devDependency, the in-test S3 server) ships no types; only what test/http/ingest/s3-server.ts uses.
declare module "s3rver" {
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      configureBuckets?: Array<{ name: string }>;
    });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
