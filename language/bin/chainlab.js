#!/usr/bin/env node
import { main } from '../out/cli/main.js';

await main(process.argv);
