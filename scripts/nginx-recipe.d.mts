import type { ChildProcess } from 'node:child_process';
export declare function nginxConfig(listen: number, replicas: number[], prefix: string): string;
export declare function startNginx(nginx: string, listen: number, replicas: number[], prefix: string): ChildProcess;
