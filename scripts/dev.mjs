// `npm run dev`: the API server with reload on port 3001 and Vite's dev server (with HMR) on 5173,
// which proxies /api, /ws and /media to it. Ctrl-C stops both.
import { spawn } from 'node:child_process';

const apiPort = process.env.API_PORT ?? '3001';
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/src/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173' },
  }),
  spawn('npm', ['run', 'dev', '-w', 'web'], {
    stdio: 'inherit',
    env: { ...process.env, API_PORT: apiPort },
  }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
