/** The policy engine (SPEC §2.10, §4.8): validate a policy, decide it against gathered evidence. */
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
