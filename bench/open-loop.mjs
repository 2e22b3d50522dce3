#!/usr/bin/env node
/**
 * An open-loop load at a fixed rate, for the carts benches' "at the target's rate" rows:
 * `node bench/open-loop.mjs <port> <path> <rate a second> <seconds> <first cart id>`,
 * printing one JSON line `{rps, p50, p99, p999, max, sent, errors, late}` (ms).
 *
 * Carts are due at fixed times (rate a second, from the start) whatever the server does, as tills' customers
 * arrive; each cart's latency runs from its due time, not from when a connection was free to send it. A closed
 * loop (wrk, each connection waiting for its answer) sends less while the server stalls, so its p99 leaves out
 * the carts that would have arrived during the stall (coordinated omission); here they wait in the queue and
 * count. Connections (BENCH_OPEN_CONNECTIONS, default 64) are opened up front and each carries one cart at a
 * time. Node's timers wake the sender about every millisecond, so a cart leaves up to about a millisecond
 * after its due time: that counts against the server, never for it. `rps` is how many of the carts due in the
 * `seconds` were answered, a second; an answer still missing 10 s after the last cart was due is an error.
 */
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { cartBody } from './carts.bench.mjs';
import { AUTH } from './processes.mjs';

const [port, path, rate, seconds, firstId] = process.argv.slice(2).map((a, i) => (i === 1 ? a : Number(a)));
const CONNECTIONS = Number(process.env.BENCH_OPEN_CONNECTIONS ?? 64);
const CUSTOMERS = Number(process.env.BENCH_CART_CUSTOMERS ?? 100);
const RANDOM_CUSTOMERS = process.env.BENCH_CUSTOMER_ORDER === 'random';
const GRACE_MS = 10_000;

const [head, rest] = JSON.stringify(cartBody(999999999, 424242)).split('999999999');
const [middle, tail] = rest.split('424242');
const headers = Object.entries({ ...AUTH, 'Content-Type': 'application/json', Host: `127.0.0.1:${port}` }).map(([k, v]) => `${k}: ${v}\r\n`).join('');

/** The request of cart number `n`, the customers taken as the wrk runs take them. */
function request(n) {
  const id = firstId + n;
  const customer = RANDOM_CUSTOMERS ? 1 + Math.floor(Math.random() * CUSTOMERS) : (id % CUSTOMERS) + 1;
  const body = `${head}${id}${middle}${customer}${tail}`;
  return `POST ${path} HTTP/1.1\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const start = performance.now() + 50;
const end = start + seconds * 1000;
const dueAt = (n) => start + (n * 1000) / rate;

const waiting = []; // numbers of the carts due, oldest first; those before `next` are sent
let next = 0;
const idle = [];
const latencies = [];
let scheduled = 0;
let errors = 0;
let late = 0; // carts sent more than 2 ms after their due time (all connections busy, or the sender late)
let outstanding = 0; // carts due and not yet answered

function send(socket) {
  const n = waiting[next++];
  if (performance.now() - dueAt(n) > 2) late++;
  socket.cart = n;
  socket.write(request(n));
}

function answered(socket, status) {
  latencies.push(performance.now() - dueAt(socket.cart));
  if (status < 200 || status > 299) errors++;
  outstanding--;
  if (next < waiting.length) send(socket);
  else idle.push(socket);
}

/** One keep-alive connection; answers are parsed by their Content-Length (uWebSockets.js always sends one). */
function open() {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.setNoDelay(true);
    socket.on('error', reject);
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      for (;;) {
        const headerEnd = buffered.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const header = buffered.toString('latin1', 0, headerEnd);
        const length = Number(/content-length: *(\d+)/i.exec(header)?.[1] ?? 0);
        if (buffered.length < headerEnd + 4 + length) return;
        buffered = buffered.subarray(headerEnd + 4 + length);
        answered(socket, Number(header.slice(9, 12)));
      }
    });
  });
}

function tick() {
  const now = performance.now();
  while (dueAt(scheduled) <= now && dueAt(scheduled) < end) {
    outstanding++;
    waiting.push(scheduled++);
  }
  while (idle.length > 0 && next < waiting.length) send(idle.pop());
  if (now < end) setTimeout(tick, 1);
  else finish(now);
}

function finish(now) {
  if (outstanding > 0 && now < end + GRACE_MS) {
    setTimeout(() => finish(performance.now()), 5);
    return;
  }
  errors += outstanding;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  console.log(JSON.stringify({ rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), p999: at(0.999), max: latencies.at(-1), sent: scheduled, errors, late }));
  process.exit(0);
}

idle.push(...(await Promise.all(Array.from({ length: CONNECTIONS }, open))));
setTimeout(tick, Math.max(0, start - performance.now()));
