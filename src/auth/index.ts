/** What other features may use of this one: everything else in the folder is its own. */
export { AuthModule } from './auth.module';
export { MerchantScope } from './merchant-scope';
export { apiKeysProjector } from './read-model/api-keys.projector';
