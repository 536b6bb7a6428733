// Dispatch: who starts each due request, and what the cap holds back; exact sequences.
#include "server/pacing/dispatch.hpp"

#include <gtest/gtest.h>

namespace stampede::server::pacing {
namespace {

using To = Dispatch::Handout::To;

TEST(Dispatch, UsersStartOnlyWhenEveryStartedOneIsBusy) {
  Dispatch dispatch(3);
  EXPECT_EQ(dispatch.due(0).to, To::new_user);
  EXPECT_EQ(dispatch.release(0), std::nullopt);  // user 0 is free again before request 1
  const auto again = dispatch.due(1);
  EXPECT_EQ(again.to, To::idle_user);
  EXPECT_EQ(again.user, 0U);
  const auto second = dispatch.due(2);  // user 0 busy: a second user
  EXPECT_EQ(second.to, To::new_user);
  EXPECT_EQ(second.user, 1U);
  EXPECT_EQ(dispatch.started(), 2U);
  EXPECT_EQ(dispatch.capped(), 0U);
}

TEST(Dispatch, TheUserFreedLastGoesFirst) {
  Dispatch dispatch(2);
  (void)dispatch.due(0);
  (void)dispatch.due(1);
  (void)dispatch.release(0);
  (void)dispatch.release(1);
  EXPECT_EQ(dispatch.due(2).user, 1U);  // its connection is the warmest
  EXPECT_EQ(dispatch.due(3).user, 0U);
}

TEST(Dispatch, PastTheCapRequestsWaitInOrderAndTheNextFreeUserTakesThem) {
  Dispatch dispatch(1);
  EXPECT_EQ(dispatch.due(0).to, To::new_user);
  EXPECT_EQ(dispatch.due(1).to, To::queue);
  EXPECT_EQ(dispatch.due(2).to, To::queue);
  EXPECT_EQ(dispatch.capped(), 2U);
  EXPECT_EQ(dispatch.waiting(), 2U);
  EXPECT_EQ(dispatch.release(0), 1U);  // at once, no idle spell
  EXPECT_EQ(dispatch.release(0), 2U);
  EXPECT_EQ(dispatch.release(0), std::nullopt);
  EXPECT_EQ(dispatch.due(3).to, To::idle_user);
  EXPECT_EQ(dispatch.capped(), 2U);
}

TEST(Dispatch, RequestsStillWaitingAtTheWindowsEndAreMissed) {
  Dispatch dispatch(1);
  (void)dispatch.due(0);
  (void)dispatch.due(1);
  (void)dispatch.due(2);
  dispatch.drop_waiting();
  EXPECT_EQ(dispatch.missed(), 2U);
  EXPECT_EQ(dispatch.waiting(), 0U);
  EXPECT_EQ(dispatch.release(0), std::nullopt);
  EXPECT_EQ(dispatch.take_idle(), std::vector<std::uint32_t>{0});
  EXPECT_TRUE(dispatch.take_idle().empty());
}

}  // namespace
}  // namespace stampede::server::pacing
