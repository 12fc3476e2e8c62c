//! The tools of docs/tools.md: the one list of them, in the order `tools/list` shows them.
//!
//! Each line names a tool's module and its [`Operation`] type; the macro declares the
//! modules and derives from the same list the registry ([`all`]), the declarations
//! ([`specs`]) and the tests that run over every tool. A tool's scope and annotations
//! come from its own `KIND`, its contract from docs/tools.md (checked by tests/docs.rs).
//! `=> views::X` after a line links the tool's MCP Apps view ([`crate::views`]).

use std::sync::Arc;

use dochiya_ledger::Ledger;
use dochiya_protocol::{Tool, ToolSpec};

use crate::operation::{LedgerTool, Operation, spec};
use crate::views;

mod recorded;

macro_rules! tool_table {
    ($($module:ident :: $operation:ident $(=> $view:expr)?),* $(,)?) => {
        $(pub(crate) mod $module;)*

        /// Every tool over `ledger`, in the table's order.
        pub(crate) fn all(ledger: &Arc<Ledger>) -> Vec<Arc<dyn Tool>> {
            fn tool<O: Operation>(ledger: &Arc<Ledger>, view: Option<&'static str>) -> Arc<dyn Tool> {
                Arc::new(LedgerTool::<O>::new(Arc::clone(ledger), view))
            }
            vec![$(tool::<$module::$operation>(ledger, None $(.or(Some($view)))?)),*]
        }

        /// The declarations of every tool, in the table's order, without a ledger.
        pub(crate) fn specs() -> Vec<ToolSpec> {
            vec![$(ToolSpec { view: None $(.or(Some($view)))?, ..spec::<$module::$operation>() }),*]
        }

        /// Each tool's name, what its serializer can write, and its published output schema.
        #[cfg(test)]
        pub(crate) fn output_schemas() -> Vec<(&'static str, serde_json::Value, serde_json::Value)> {
            vec![$((
                <$module::$operation as Operation>::NAME,
                crate::schema::serializer_schema::<<$module::$operation as Operation>::Output>(),
                crate::schema::output_schema::<<$module::$operation as Operation>::Output>(),
            )),*]
        }

        /// Each tool's schema/parser agreement on its own examples (see `Operation::EXAMPLES`).
        #[cfg(test)]
        pub(crate) fn check_every_example() {
            $(crate::operation::check_examples::<$module::$operation>();)*
        }
    };
}

tool_table! {
    list_vaults::ListVaults,
    list_accounts::ListAccounts,
    list_transactions::ListTransactions,
    get_transaction::GetTransaction,
    get_balances::GetBalances,
    spending_report::SpendingReport => views::SPENDING,
    net_worth_history::NetWorthHistory,
    reconcile::Reconcile,
    budget_report::BudgetReport => views::BUDGET,
    list_snapshots::ListSnapshots,
    export_transactions::ExportTransactions,
    list_recurring::ListRecurring,
    card_bill::CardBill => views::CARD_BILL,
    settle_up::SettleUp,
    create_vault::CreateVault,
    update_vault::UpdateVault,
    create_account::CreateAccount,
    update_account::UpdateAccount,
    record_transaction::RecordTransaction,
    record_transactions::RecordTransactions,
    edit_transaction::EditTransaction,
    void_transaction::VoidTransaction,
    undo::Undo,
    upsert_snapshot::UpsertSnapshot,
    delete_snapshot::DeleteSnapshot,
    set_budget::SetBudget,
    set_goal::SetGoal,
    set_recurring::SetRecurring,
    share_vault::ShareVault,
    join_vault::JoinVault,
    remove_member::RemoveMember,
    leave_vault::LeaveVault,
    delete_vault::DeleteVault,
}
