#!/usr/bin/env node
// Makes sure nginx is installed (for the scale-out test): prints its path, installing the Debian
// package with apt-get when it is missing (as root, or through sudo). Exits 1 with the reason
// when it cannot.
import { spawnSync } from 'node:child_process';

const find = () => {
  for (const path of ['nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']) {
    if (spawnSync(path, ['-v']).status === 0) return path;
  }
  return null;
};

let nginx = find();
if (!nginx) {
  const root = process.getuid?.() === 0;
  const sudo = !root && spawnSync('sudo', ['-n', 'true']).status === 0;
  if (!root && !sudo) {
    console.error('ensure-nginx: nginx is missing and this user cannot install packages (not root, no passwordless sudo)');
    process.exit(1);
  }
  if (spawnSync('apt-get', ['--version']).status !== 0) {
    console.error('ensure-nginx: nginx is missing and apt-get is not available; install nginx with your package manager');
    process.exit(1);
  }
  const run = (args) => {
    const cmd = sudo ? 'sudo' : args[0];
    const argv = sudo ? ['-n', ...args] : args.slice(1);
    console.error(`ensure-nginx: ${[cmd, ...argv].join(' ')}`);
    const r = spawnSync(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return r.status === 0;
  };
  if (!run(['apt-get', 'update', '-qq']) || !run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'nginx'])) {
    console.error('ensure-nginx: apt-get could not install nginx');
    process.exit(1);
  }
  nginx = find();
  if (!nginx) {
    console.error('ensure-nginx: nginx installed but not found on the PATH');
    process.exit(1);
  }
}
console.log(nginx);
