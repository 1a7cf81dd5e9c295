export { TagsManagerModal } from './TagsManagerModal';
