/** The contacts domain's use-cases, one import for screens, API routes and jobs. */
export { saveContact, updateContact } from "./save";
export { listContacts, CONTACTS_PAGE, COUNT_CAP, type ContactPage, type ContactRow } from "./list";
export { getContact, contactActivity, type ContactView, type ContactActivity, type CustomValueView } from "./get";
export { deleteContact, deleteContacts, addToGroup, removeFromGroup, bulkContacts } from "./bulk";
export { listGroups, groupOptions, getGroup, createGroup, updateGroup, deleteGroup, type GroupView } from "./groups";
export { listCustomFields, pageCustomFields, getCustomField, createCustomField, updateCustomField, deleteCustomField, type CustomFieldView } from "./fields";
export { exportContact, eraseContact, type ContactExport } from "./lgpd";
export { isPrivileged } from "./access";
