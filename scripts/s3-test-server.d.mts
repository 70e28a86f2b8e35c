export declare const S3_CREDENTIALS: Record<string, string>;
export interface StartedS3Server {
  readonly endpoint: string;
  readonly directory: string;
  readonly env: Record<string, string>;
  setReachable(value: boolean): void;
  close(): Promise<void>;
}
export declare function startS3Server(options?: { directory?: string; port?: number; buckets?: string[] }): Promise<StartedS3Server>;
