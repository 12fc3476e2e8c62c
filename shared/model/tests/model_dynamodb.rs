//! Random household histories against the reference model on DynamoDB (the moto server
//! tests/run.sh starts): fewer than on the local stores, moto being slower.

use dochiya_model::machine::OnDynamo;
use dochiya_model::runner::run;

#[test]
fn histories_on_dynamodb() {
    run::<OnDynamo>("histories_on_dynamodb", 5);
}
