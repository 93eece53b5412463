// Development: rebuilds the web app on change and restarts the server on change.
import { spawn } from 'node:child_process';

const run = (cmd, args, env = {}) =>
  spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'development', ...env } });

const children = [
  run(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--watch', '--mode', 'development']),
  run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'src/server/main.ts']),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
