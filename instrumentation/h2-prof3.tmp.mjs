import { classifyError } from '@faultline/instrumentation';
import { ReplyError } from 'ioredis';
const which = process.argv[2];
const v = which === 'redis' ? new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value') : which === 'plain' ? new Error('something odd') : Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { errno: -111, code: 'ECONNREFUSED', syscall: 'connect' });
for (let i = 0; i < 300000; i++) classifyError(v);
