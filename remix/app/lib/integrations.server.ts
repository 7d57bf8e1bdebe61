/** The integrations' use-cases as the /integrations screens call them (server only: the browser bundle never sees them). */
export {
  getIntegration,
  installIntegration,
  integrationWhatsappChoices,
  installSchema,
  listIntegrationEvents,
  listIntegrations,
  testIntegration,
  uninstallIntegration,
  updateIntegration,
  updateFormSchema,
  updateSchema,
} from "~api/integrations/services";
