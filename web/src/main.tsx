/** Loaded by boot.ts (the entry, with the stylesheet). */
import { startApp } from './app/start.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

void startApp(container);
