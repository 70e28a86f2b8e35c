// deploy/nginx.conf as shipped, pointed at given replica ports, running unprivileged in a
// temporary prefix and naming the replica that answered in an X-Upstream header. Used by the
// scale-out test and the replicas benchmark; neither installs nginx (npm run setup:test does).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The recipe's text for `listen` in front of `replicas` (ports), with its files under `prefix`. */
export function nginxConfig(listen, replicas, prefix) {
  let conf = readFileSync(join(root, 'deploy', 'nginx.conf'), 'utf8');
  const servers = replicas.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n');
  conf = conf.replace(/( {4}server 127\.0\.0\.1:\d+ [^\n]*\n)+/, `${servers}\n`);
  conf = conf.replace('listen 8080;', `listen 127.0.0.1:${listen};\n    add_header X-Upstream $upstream_addr always;`);
  conf = conf.replace('worker_processes auto;', `worker_processes 1;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log warn;`);
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${prefix}/${t};`).join('\n');
  return conf.replace('http {', `http {\n${temps}`);
}

/**
 * Writes the configuration into `prefix`, checks it with `nginx -t` and starts nginx in the
 * foreground. Returns the child process (stop it with SIGTERM: its master stops the workers).
 */
export function startNginx(nginx, listen, replicas, prefix) {
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, t), { recursive: true });
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(conf, nginxConfig(listen, replicas, prefix));
  const check = spawnSync(nginx, ['-t', '-p', prefix, '-c', conf], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the recipe: ${check.stderr}`);
  return spawn(nginx, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
}
