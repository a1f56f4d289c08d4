import { serveTasks } from '@crcs/tlog';
import { STORED_TASKS } from './stored-verification';

serveTasks(STORED_TASKS);
