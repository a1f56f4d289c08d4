import { HASH_TASKS } from './hash-pool';
import { serveTasks } from './serve-tasks';

serveTasks(HASH_TASKS);
