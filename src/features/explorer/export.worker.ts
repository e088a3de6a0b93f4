// First: no schema may be made before zod is told not to use eval (see noEval.ts).
import '../../app/noEval';
import { expose } from 'comlink';
import { createExportWorkerApi } from './exportWorkerApi';

expose(createExportWorkerApi());
