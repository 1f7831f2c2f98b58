/** The policy engine (docs/credentials.md#policies): validate a policy, decide it against evidence. */
export { evaluatePolicy, parsePolicy } from './evaluate.js';
export { isValidSigningKey, RULES } from './rules.js';
export {
  isPolicyRule,
  POLICY_RULES,
  POLICY_STATUSES,
  RULE_STATUSES,
  type Policy,
  type PolicyEvaluation,
  type PolicyEvidence,
  type PolicyRule,
  type PolicyRuleValues,
  type PolicyStatus,
  type RuleEvaluation,
  type RuleStatus,
} from './types.js';
